// The most holders a page takes in one first scan: the host closes a page that has more than its
// send limit waiting (1013, host/web/page-sender.ts), so a first scan that is too big on the wire
// never shows. Real processes hold the files; one page opens onto the watch and counts them all.
import { ms1, openBenchPage, passOrMiss, withBrowser } from './ui-browser.js';
import { withWatchedHolders } from './ui-real-backend.js';

export async function benchWireLimit(holders: number): Promise<void> {
  await withWatchedHolders(holders, async (url, { processes, heldFds }) => {
    const arrival = await withBrowser(async (context) => {
      const { bench } = await openBenchPage(context, url);
      return bench.evaluate((b, n) => b.arrival(n), holders);
    });
    console.log(`\nui-volume: ${holders} holders on the REAL backend (${heldFds} fds held by ${processes} Python processes), one page`);
    console.log(`  page open -> first rows painted: ${ms1(arrival.firstRowMs)} ms; -> all counted: ${ms1(arrival.allRowsMs)} ms`);
    console.log(
      `  holders the table counted: ${arrival.shown}; the page's connection: ${arrival.closeCode === null ? 'open' : `closed by the host (${arrival.closeCode})`}`,
    );
    const whole = arrival.closeCode === null && arrival.shown >= holders;
    console.log(`\n${passOrMiss(whole)}  UI with ${holders} holders, real backend: every holder shown, the page not closed`);
  });
}
