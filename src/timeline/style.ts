/** The timeline's CSS: shared by `renderTimeline`'s page and the `serve` page. */
export const TIMELINE_CSS = `
.timeline{font:11px system-ui,sans-serif;background:#fff}
.timeline .lane-bg{fill:#f6f7f9}.timeline .lane-name{fill:#555;font-weight:600}
.timeline .tick{fill:#999}
.timeline .window{fill:#ffd54f;opacity:.28}
.timeline .bar rect{fill:#90caf9;stroke:#1e88e5}.timeline .bar text{fill:#0d2b45;pointer-events:none}
.timeline .bar.steering rect{fill:#ffcc80;stroke:#ef6c00}.timeline .bar.parked rect{fill:#e0e0e0;stroke:#9e9e9e}
.timeline .bar.open rect{stroke-dasharray:4 3}
.timeline .bar.turn rect{fill:#c5e1a5;stroke:#558b2f}.timeline .bar.step rect{fill:#b2dfdb;stroke:#00796b}
.timeline .bar.tool rect{fill:#ce93d8;stroke:#7b1fa2}.timeline .bar.tool.error rect{fill:#ef9a9a;stroke:#c62828}
.timeline .bar.running rect{fill:#a5d6a7;stroke:#2e7d32}.timeline .bar.paused rect{fill:#ffcc80;stroke:#ef6c00}
.timeline .bar.approval rect{fill:#ffe0b2;stroke:#ef6c00}.timeline .bar.approval.approved rect{fill:#c8e6c9;stroke:#2e7d32}
.timeline .bar.approval.denied rect,.timeline .bar.approval.aborted rect{fill:#ef9a9a;stroke:#c62828}
.timeline .bar.budget rect{fill:#fff59d;stroke:#f9a825}
.timeline .bar.step.cut rect{fill:#ffe0b2;stroke:#c62828;stroke-width:2}
.timeline .bar.tool.cancelled rect{fill:#eeeeee;stroke:#c62828;stroke-width:2}
.timeline .bar.turn.rolled-back{opacity:.45}.timeline .bar.turn.rolled-back text{text-decoration:line-through}
.timeline .bar.compaction rect{fill:#d1c4e9;stroke:#4527a0}.timeline .bar.rollback rect{fill:#ffcdd2;stroke:#ad1457}
.timeline .bar.fork rect{fill:#b2ebf2;stroke:#00838f}
.timeline .mark.history.compaction,.timeline .mark.durable.compaction{fill:#4527a0}
.timeline .mark.history.rollback,.timeline .mark.durable.rollback{fill:#ad1457}
.timeline .mark.history.fork,.timeline .mark.durable.fork{fill:#00838f}
.timeline .mark{fill:#546e7a;stroke:#fff;stroke-width:1.5;cursor:pointer}
.timeline .mark.enqueue{fill:#1e88e5}.timeline .mark.dequeue{fill:#2e7d32}.timeline .mark.discard{fill:#c62828}
.timeline .mark.replace{fill:#ef6c00}.timeline .mark.durable{fill:#37474f}
.timeline .mark.durable.user-message,.timeline .mark.durable.steering-message{fill:#1565c0}
.timeline .mark.cut,.timeline .mark.cancelled{stroke:#c62828;stroke-width:3}
.timeline .link{stroke:#1565c0;stroke-width:1.2;fill:none;opacity:.7}
.timeline [data-info]{cursor:pointer}
.details{white-space:pre-wrap;font:12px ui-monospace,monospace;background:#f4f4f4;padding:8px;max-height:40vh;overflow:auto}
`
