import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/env.ts";

const dataDir = () => mkdtempSync(join(tmpdir(), "atelier-env-"));

describe("configuration (src/env.ts)", () => {
  it("runs with no configuration: port 3000, PGlite and files under ./data-like DATA_DIR", () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      s3: null,
      google: null,
      github: null,
      oidc: null,
    });
    expect(config.publicUrl).toBe("http://localhost:3000");
  });

  it("generates the auth secret once and keeps it in DATA_DIR", () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).authSecret;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(loadConfig({ DATA_DIR: dir }).authSecret).toBe(first);
    expect(readFileSync(join(dir, "auth-secret"), "utf8").trim()).toBe(first);
    expect(statSync(join(dir, "auth-secret")).mode & 0o777).toBe(0o600);
  });

  it.each([
    [{ PORT: "http" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL — must be a postgres:// or postgresql:// URL"],
    [{ PUBLIC_URL: "ftp://example.com" }, "PUBLIC_URL"],
    [{ AUTH_SECRET: "short" }, "AUTH_SECRET — must be at least 32 characters"],
    [{ GOOGLE_CLIENT_ID: "id" }, "GOOGLE_CLIENT_SECRET is required when GOOGLE_CLIENT_ID is set"],
    [
      { OIDC_CLIENT_ID: "id", OIDC_CLIENT_SECRET: "s" },
      "OIDC_ISSUER is required when OIDC_CLIENT_ID is set",
    ],
    [{ S3_BUCKET: "media" }, "S3_ACCESS_KEY_ID is required when S3 storage is configured"],
  ])("refuses %j naming the variable", (env, fragment) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(fragment);
  });

  it("reads providers, admins and S3", () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      PUBLIC_URL: "https://atelier.example.com/",
      GITHUB_CLIENT_ID: "gh",
      GITHUB_CLIENT_SECRET: "gh-secret",
      ADMIN_EMAILS: "Boss@Example.com, ops@example.com",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_BUCKET: "media",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
    });
    expect(config.publicUrl).toBe("https://atelier.example.com");
    expect(config.github).toEqual({ clientId: "gh", clientSecret: "gh-secret" });
    expect(config.adminEmails).toEqual(["boss@example.com", "ops@example.com"]);
    expect(config.s3).toMatchObject({
      endpoint: "http://127.0.0.1:9000",
      bucket: "media",
      forcePathStyle: true,
    });
  });

  it("reads a ComfyUI pool and its auth header; refuses a URL that is not http(s)", () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      COMFYUI_URL: "http://gpu-1:8188/, https://gpu-2.example.com",
      COMFYUI_AUTH_HEADER: "Authorization: Bearer s3cret",
    });
    expect(config.generation.comfyui).toEqual({
      urls: ["http://gpu-1:8188", "https://gpu-2.example.com"],
      headers: { Authorization: "Bearer s3cret" },
    });
    expect(loadConfig({ DATA_DIR: dataDir() }).generation.comfyui).toBeNull();
    expect(
      loadConfig({ DATA_DIR: dataDir(), PROVIDER_ORDER: "ComfyUI, fal" }).generation.providerOrder,
    ).toEqual(["comfyui", "fal"]);
    expect(() => loadConfig({ DATA_DIR: dataDir(), PROVIDER_ORDER: "gpu" })).toThrow(
      /PROVIDER_ORDER — must list providers among comfyui, fal, runway/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), COMFYUI_URL: "ftp://gpu:21" })).toThrow(
      /COMFYUI_URL/,
    );
    expect(() =>
      loadConfig({
        DATA_DIR: dataDir(),
        COMFYUI_URL: "http://gpu:8188",
        COMFYUI_AUTH_HEADER: "token",
      }),
    ).toThrow(
      'Invalid configuration: COMFYUI_AUTH_HEADER — must look like "Authorization: Bearer …"',
    );
  });
});
