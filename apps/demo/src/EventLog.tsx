// The event log panel: every HTTP leg of the page, newest first, redacted (see log.ts).
import { useId, useState } from "react";
import { clearLog, useLog } from "./log.js";

export function EventLog() {
  const entries = useLog();
  const [open, setOpen] = useState(true);
  const listId = useId();
  return (
    <aside className="log" aria-labelledby={`${listId}-title`}>
      <div className="log-head">
        <h2 id={`${listId}-title`}>Event log</h2>
        <div className="row">
          <button
            type="button"
            className="link"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen(!open)}
          >
            {open ? "Hide" : "Show"}
          </button>
          <button type="button" className="link" onClick={clearLog}>
            Clear
          </button>
        </div>
      </div>
      <p className="muted small">
        Every HTTP leg, secrets redacted: no bodies, codes, stamps or keys.
      </p>
      {open && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        <ol id={listId} className="log-list" aria-label="HTTP legs, newest first" tabIndex={0}>
          {entries.length === 0 && <li className="muted">Nothing yet.</li>}
          {entries.map((e) => (
            <li key={e.id} className={`log-${e.tone}`}>
              <time dateTime={new Date(e.at).toISOString()}>
                {new Date(e.at).toLocaleTimeString()}
              </time>{" "}
              <span className="visually-hidden">{e.tone === "error" ? "failed: " : ""}</span>
              {e.text}
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}
