// uid -> user name from /etc/passwd, read once per process. Unknown uids show as the number.
import { readFileSync } from 'node:fs';

let names: Map<number, string> | undefined;

export function parsePasswd(text: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const line of text.split('\n')) {
    const [name, , uid] = line.split(':');
    if (name && uid && /^\d+$/.test(uid) && !map.has(Number(uid))) map.set(Number(uid), name);
  }
  return map;
}

export function userNameOf(uid: number): string {
  if (!names) {
    try {
      names = parsePasswd(readFileSync('/etc/passwd', 'utf8'));
    } catch {
      names = new Map();
    }
  }
  return names.get(uid) ?? String(uid);
}
