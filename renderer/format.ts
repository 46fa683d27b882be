// Small display helpers shared by the components.
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export const VERDICT_LABEL: Record<string, string> = {
  'blocked-cleanup': 'blocked cleanup',
  'leaked-past-test': 'leaked past test',
  'outside-run': 'outside run',
  'in-run': 'in run',
};
