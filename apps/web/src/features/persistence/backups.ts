import { LIMITS, type SavedWorkflow } from "@atelier/core";
import type { Backup, LocalDb } from "./local-db.ts";

const KEY_NAME = "backups";

/** This browser's backup key: AES-GCM 256, generated once, never extractable. */
async function backupKey(db: LocalDb): Promise<CryptoKey> {
  const stored = await db.cryptoKeys.get(KEY_NAME);
  if (stored) return stored.key;
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
  await db.cryptoKeys.put({ name: KEY_NAME, key });
  return key;
}

/** Encrypts and keeps a workflow; only the latest 5 backups stay (SPEC §9). */
export async function createBackup(
  db: LocalDb,
  of: { workflowId: string | null; name: string; basedOn: string | null },
  data: SavedWorkflow,
): Promise<void> {
  const key = await backupKey(db);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    key,
    new TextEncoder().encode(JSON.stringify(data)),
  );
  await db.backups.add({ ...of, createdAt: Date.now(), iv, ciphertext });
  const all = await db.backups.orderBy("createdAt").toArray();
  const excess = all.slice(0, Math.max(0, all.length - LIMITS.backups.keep));
  await db.backups.bulkDelete(excess.map((backup) => backup.id as number));
}

export async function listBackups(db: LocalDb): Promise<Backup[]> {
  return db.backups.orderBy("createdAt").reverse().toArray();
}

/** Decrypts a backup; throws when it cannot (another browser's key, damaged data). */
export async function readBackup(
  db: LocalDb,
  id: number,
): Promise<{ backup: Backup; data: SavedWorkflow }> {
  const backup = await db.backups.get(id);
  if (!backup) throw new Error("Backup not found");
  const key = await backupKey(db);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: backup.iv },
    key,
    backup.ciphertext,
  );
  return { backup, data: JSON.parse(new TextDecoder().decode(plain)) as SavedWorkflow };
}
