/** The one query method PGlite and a pg client share. */
export interface Queryable {
  query<Row>(sql: string): Promise<{ rows: Row[] }>;
}

/** What the manifest counts, by table; a table missing in an older schema counts 0. */
const COUNTED = {
  users: '"user"',
  workflows: "workflows",
  versions: "workflow_versions",
  jobs: "jobs",
  mediaFiles: "workflow_media_manifest",
} as const;

export type TableCounts = Record<keyof typeof COUNTED, number>;

export async function countRows(db: Queryable): Promise<TableCounts> {
  const counts = {} as TableCounts;
  for (const [name, table] of Object.entries(COUNTED) as [keyof TableCounts, string][]) {
    const found = await db.query<{ found: string | null }>(
      `select to_regclass('public.${table}')::text as found`,
    );
    if (!found.rows[0]?.found) {
      counts[name] = 0;
      continue;
    }
    const answer = await db.query<{ count: string | number }>(
      `select count(*) as count from public.${table}`,
    );
    counts[name] = Number(answer.rows[0]?.count ?? 0);
  }
  return counts;
}

/** "3 users, 12 workflows, …" for progress lines. */
export function describeCounts(counts: TableCounts): string {
  return `${counts.users} users, ${counts.workflows} workflows, ${counts.versions} versions, ${counts.jobs} jobs, ${counts.mediaFiles} media records`;
}
