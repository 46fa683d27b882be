// The report's only stylesheet, inlined: system fonts (no web fonts, no network), print-friendly.
import { VERDICT_COLOR } from './html-timeline.js';

const verdictRules = Object.entries(VERDICT_COLOR)
  .map(([verdict, color]) => `.verdict-${verdict}{background:${color}}`)
  .join('');

export const REPORT_CSS = `
:root{color-scheme:light;--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;padding:24px 32px 48px;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",sans-serif;color:var(--ink);background:#fff}
main{max-width:1160px;margin:0 auto}
h1{font-size:20px;line-height:1.35;margin:0 0 6px;font-weight:600}
h2{font-size:16px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
code,pre,.mono{font-family:ui-monospace,"Cascadia Mono",Consolas,"Liberation Mono",monospace;font-size:12.5px}
code{background:var(--soft);padding:1px 4px;border-radius:4px;overflow-wrap:break-word}
h1 code{font-size:17px}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:10px 12px;white-space:pre-wrap;overflow-wrap:anywhere;margin:6px 0 12px}
.meta{color:var(--muted);margin:0}
.kind-failure h1{color:#8c1d18}
table{border-collapse:collapse;width:100%;margin:6px 0}
th,td{text-align:left;vertical-align:top;padding:5px 8px;border-bottom:1px solid var(--line)}
th{background:var(--soft);font-weight:600;white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.gap td{color:var(--muted);font-style:italic}
tr.teardown-only td{background:#fff4f2}
.note{color:#8c1d18;font-weight:500}
.verdict{display:inline-block;color:#fff;border-radius:10px;padding:0 8px;font-size:12px;white-space:nowrap}
${verdictRules}
.legend{color:var(--muted);font-size:12.5px;margin:4px 0 0}
.legend span{display:inline-block;margin-right:14px}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}
.scroll{overflow-x:auto;border:1px solid var(--line);border-radius:6px;padding:6px 0;background:#fff}
svg.timeline{display:block;font:11px system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",sans-serif}
svg .tick{stroke:#eaeef2}
svg .tick-label{fill:var(--muted)}
svg .row-title{font-weight:600;fill:var(--ink)}
svg .gutter{fill:var(--ink)}
svg .on-bar{fill:#fff;pointer-events:none}
svg .test .on-bar{fill:#1f2328;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
svg .beside{fill:var(--muted)}
svg .sep{stroke:var(--line)}
svg .outline{stroke:#fff;stroke-width:1}
svg .failure line{stroke:#c62828;stroke-width:1.5;stroke-dasharray:4 3}
svg .failure path{fill:#c62828}
svg g.test:hover rect,svg g.lane:hover rect{filter:brightness(0.85)}
svg g.lane:hover .gutter{font-weight:600}
ul.chain,ul.chain ul{list-style:none;margin:0;padding-left:18px}
ul.chain{padding-left:0;margin-bottom:10px}
ul.chain li{margin:2px 0}
ul.chain ul li::before{content:"└ ";color:var(--muted)}
.holder-title{font-weight:600}
details summary{cursor:pointer;color:var(--muted);margin:6px 0}
summary h2{display:inline;color:var(--fg,inherit)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:6px 0}
dt{color:var(--muted)}
dd{margin:0}
@media print{body{padding:0}.scroll{overflow:visible;border:0}}
`;
