import { useEffect, useState } from "react";
import { useWorkspace } from "../workspace/store.ts";
import { EntryButton } from "./EntryButton.tsx";
import { type LibraryEntry, type LibraryQuery, listAllWorkflows } from "./library-actions.ts";

const WHERE: Record<NonNullable<LibraryEntry["where"]>, string> = {
  device: "This device",
  cloud: "Cloud",
  both: "Cloud · this device",
};

/** Where a workflow lives, in words (and whether this device's copy is up to date). */
function whereabouts(entry: LibraryEntry): string {
  if (!entry.where) return "";
  if (entry.where !== "both") return WHERE[entry.where];
  return entry.inSync ? `${WHERE.both} · in sync` : `${WHERE.both} · device copy older`;
}

/**
 * Every workflow once, with where it lives: search by name, order by date or name, and the
 * next 100 on request. Lists again after each save and open (`revision`).
 */
export function AllWorkflows({ revision }: { revision: number }) {
  const user = useWorkspace((state) => state.user);
  const [query, setQuery] = useState<Required<Pick<LibraryQuery, "q" | "sort">>>({
    q: "",
    sort: "modified",
  });
  const [entries, setEntries] = useState<LibraryEntry[] | null>(null);
  const [nextOffset, setNextOffset] = useState<number | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the revision is the trigger
  useEffect(() => {
    let live = true;
    // Typing settles for a moment before the server is asked.
    const timer = setTimeout(
      () => {
        void listAllWorkflows(user !== null, query).then((page) => {
          if (!live) return;
          setEntries(page.entries);
          setNextOffset(page.nextOffset);
        });
      },
      query.q ? 200 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [user, query, revision]);

  const more = async () => {
    if (nextOffset === null) return;
    const page = await listAllWorkflows(user !== null, { ...query, offset: nextOffset });
    setEntries((shown) => [...(shown ?? []), ...page.entries]);
    setNextOffset(page.nextOffset);
  };

  return (
    <section aria-label="All workflows">
      <h2>{user ? "Your workflows" : "On this device"}</h2>
      <div className="library-tools">
        <input
          type="search"
          aria-label="Search workflows"
          placeholder="Search by name"
          value={query.q}
          onChange={(event) => setQuery({ ...query, q: event.target.value })}
        />
        <select
          aria-label="Sort workflows"
          value={query.sort}
          onChange={(event) =>
            setQuery({ ...query, sort: event.target.value === "name" ? "name" : "modified" })
          }
        >
          <option value="modified">Newest</option>
          <option value="name">Name</option>
        </select>
      </div>
      {entries === null ? (
        <p className="muted">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="muted">{query.q ? "No workflow has that name" : "No saved workflows yet"}</p>
      ) : (
        <ul>
          {entries.map((entry) => (
            <EntryButton
              key={entry.id}
              entry={entry}
              detail={`${new Date(entry.when).toLocaleDateString()}${entry.where ? ` · ${whereabouts(entry)}` : ""}`}
            />
          ))}
        </ul>
      )}
      {nextOffset !== null ? (
        <button type="button" className="link" onClick={() => void more()}>
          Show more
        </button>
      ) : null}
    </section>
  );
}
