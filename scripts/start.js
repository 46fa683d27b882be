// `npm start`: until the desktop app lands (issue 5 of 5), watch the system temp dir live in the terminal.
import { tmpdir } from 'node:os';
import { main } from '../dist/cli/main.js';

main(['watch', tmpdir(), ...process.argv.slice(2)]);
