-- Chunk texts are the bulk of a large save's write inside the database. PostgreSQL builds
-- with lz4 compress workflow JSON about as well as the default pglz in a fraction of the
-- time. Where lz4 is missing (PGlite), chunk texts are stored uncompressed: pglz took about
-- as long as the rest of the write, for ~3x less disk.
DO $$ BEGIN
  ALTER TABLE "workflow_chunks" ALTER COLUMN "data" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  ALTER TABLE "workflow_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;
END $$;
