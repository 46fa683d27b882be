// Secrets a run's command lines may carry, masked by `--redact` as well as the home and the user name:
// a report goes into a public issue, and a command line is where `--password=...`, `GITHUB_TOKEN=...` and
// `https://user:pass@host` end up. Masking is by shape and by name; over-masking (a `--token-file`
// path) is the safe error.
export const REDACTED_SECRET = '<redacted>';

// Option and variable names that say their value is a secret.
const SECRET_NAME = String.raw`[\w.-]*?(?:passw(?:or)?d|token|secret|api[-_]?key|access[-_]?key|private[-_]?key|credentials?|auth)[\w.-]*`;
// A bare option whose next word is its value: only names that end in a secret word (`--no-auth tests/`
// and `--token-file x` take no secret), so a test path after a flag is not masked.
const BARE_SECRET_OPTION = String.raw`--?[\w.-]*?(?:passw(?:or)?d|token|secret|api[-_]?key|access[-_]?key|private[-_]?key)`;
// `--password=x`, `-token=x`, `--db-pass=x`: an option with its value after `=`.
const OPTION_WITH_VALUE = new RegExp(String.raw`(^|[\s"'])(--?${SECRET_NAME}=)("[^"]*"|'[^']*'|[^\s"']+)`, 'giu');
// `--password x`: the option and its value as the next word of a command line.
const OPTION_THEN_VALUE = new RegExp(String.raw`(^|[\s"'])(${BARE_SECRET_OPTION})(\s+)("[^"]*"|'[^']*'|(?!-)[^\s"']+)`, 'giu');
// `GITHUB_TOKEN=x`, `DB_PASSWORD=x`: an environment assignment (in `env A=b cmd`, `sh -c`, a failure text).
const ENV_ASSIGNMENT = new RegExp(
  String.raw`(^|[\s"';&|(])([A-Za-z_][\w]*?(?:PASSW(?:OR)?D|TOKEN|SECRET|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[\w]*=)("[^"]*"|'[^']*'|[^\s"';&|)]+)`,
  'giu',
);
// `scheme://user:password@host`.
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(@)/giu;
// Tokens whose shape names them wherever they stand: GitHub, GitLab, Slack, AWS, Stripe/OpenAI-style keys.
const TOKEN_SHAPES =
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|sk[-_](?:live[-_]|test[-_])?[A-Za-z0-9]{16,})\b/gu;

/** `text` with every secret it shows by shape or by name masked. */
export function redactSecrets(text: string): string {
  return text
    .replace(OPTION_WITH_VALUE, (_m, lead: string, option: string) => `${lead}${option}${REDACTED_SECRET}`)
    .replace(OPTION_THEN_VALUE, (_m, lead: string, option: string, gap: string) => `${lead}${option}${gap}${REDACTED_SECRET}`)
    .replace(ENV_ASSIGNMENT, (_m, lead: string, name: string) => `${lead}${name}${REDACTED_SECRET}`)
    .replace(URL_PASSWORD, (_m, before: string, _password: string, at: string) => `${before}${REDACTED_SECRET}${at}`)
    .replace(TOKEN_SHAPES, REDACTED_SECRET);
}

/** An argv: each word as redactSecrets sees it, and the word after a bare secret option (`--token x`) masked. */
export function redactSecretArgs(argv: readonly string[]): string[] {
  const bareOption = new RegExp(String.raw`^${BARE_SECRET_OPTION}$`, 'iu');
  return argv.map((word, i) => (i > 0 && bareOption.test(argv[i - 1]!) && !word.startsWith('-') ? REDACTED_SECRET : redactSecrets(word)));
}
