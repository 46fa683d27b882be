// The guide's test database: SQLite in a file, its path from the environment as Strapi's own config reads it.
module.exports = {
  connection: {
    client: 'sqlite',
    connection: { filename: process.env.DATABASE_FILENAME || '.tmp/test.db' },
    useNullAsDefault: true,
  },
};
