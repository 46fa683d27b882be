const Strapi = require('strapi');

let instance;

async function setupStrapi() {
  if (!instance) {
    await Strapi().load();
    instance = strapi; // strapi is global now
  }
  return instance;
}

module.exports = { setupStrapi };
