-- Chunk texts are the bulk of a large save's write inside the database. PostgreSQL builds
-- with lz4 (14 and later) compress workflow JSON about as well as the default pglz in a
-- fraction of the time. PGlite has no lz4: there chunk texts are stored uncompressed, as
-- pglz took about as long as the rest of the write, for ~3x less disk. Elsewhere (older or
-- lz4-less PostgreSQL) pglz stays. Statements run through EXECUTE, so servers older than 14
-- never parse the COMPRESSION clause.
DO $$ BEGIN
  IF current_setting('server_version_num')::int >= 140000 THEN
    BEGIN
      EXECUTE 'ALTER TABLE "workflow_chunks" ALTER COLUMN "data" SET COMPRESSION lz4';
    EXCEPTION WHEN feature_not_supported THEN
      IF version() LIKE '%PGlite%' THEN
        EXECUTE 'ALTER TABLE "workflow_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL';
      END IF;
    END;
  END IF;
END $$;
