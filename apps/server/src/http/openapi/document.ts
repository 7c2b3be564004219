import * as core from "@atelier/core";
import { z } from "zod";
import type { ApiRoute, RouteAuth } from "./route-spec.ts";

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ "application/json": { schema } });
const capital = (word: string) => (word[0]?.toUpperCase() ?? "") + word.slice(1);

/** The zod schemas a route row may name, each converted to a component. */
const SCHEMA_PARTS = ["body", "multipart", "query", "params", "response", "stream"] as const;
type SchemaPart = (typeof SCHEMA_PARTS)[number];

const SECURITY: Record<RouteAuth, Json[]> = {
  session: [{ sessionCookie: [] }, { bearerAuth: [] }],
  account: [{ sessionCookie: [] }, { bearerAuth: [] }],
  optional: [{}, { sessionCookie: [] }, { bearerAuth: [] }],
  browser: [{ sessionCookie: [] }],
  provider: [],
  public: [],
};

/** "GET /api/folders/:id/workflows" → "getFoldersByIdWorkflows". */
export function operationIdOf(route: string): string {
  const [method = "", path = ""] = route.split(" ");
  const words = path
    .replace(/^\/api\//, "")
    .split(/[/.-]/)
    .filter(Boolean)
    .map((part) =>
      part === "*" ? "Any" : part.startsWith(":") ? `By${capital(part.slice(1))}` : part,
    );
  return (
    method.toLowerCase() + words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join("")
  );
}

/** The route's path as the document shows it: `{id}` parameters, wildcards named. */
export function documentPathOf(entry: ApiRoute): string {
  if (entry.docPath) return entry.docPath;
  const path = entry.route.split(" ")[1] ?? "";
  return path.replace(/:(\w+)/g, "{$1}").replace(/\*$/, "{path}");
}

/**
 * One JSON Schema component per zod DTO of core (named after its export, `zFolder` →
 * `Folder`), plus the table's own schemas (named after their operation). Converted once by
 * zod's `z.toJSONSchema`, so a DTO used inside another becomes a `$ref`. `io: "input"`:
 * the document says what each schema accepts (answers have no transforms to differ).
 */
function convertSchemas(routes: readonly ApiRoute[]) {
  const registry = z.registry<{ id: string }>();
  for (const [name, value] of Object.entries(core))
    if (name.startsWith("z") && value instanceof z.ZodType && !registry.has(value))
      registry.add(value, { id: name.slice(1) });
  const nameOf = (schema: z.ZodType, fallback: string): string => {
    const known = registry.get(schema)?.id;
    if (known) return known;
    registry.add(schema, { id: fallback });
    return fallback;
  };
  const named = new Map<ApiRoute, Partial<Record<SchemaPart, string>>>();
  for (const entry of routes) {
    const base = operationIdOf(entry.route).replace(/^./, (first) => first.toUpperCase());
    const parts: Partial<Record<SchemaPart, string>> = {};
    for (const part of SCHEMA_PARTS) {
      const schema = entry[part];
      if (schema && schema !== true) parts[part] = nameOf(schema, `${base}${capital(part)}`);
    }
    named.set(entry, parts);
  }
  const { schemas } = z.toJSONSchema(registry, {
    io: "input",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  });
  const components: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const { $schema: _schema, $id: _id, ...rest } = schema as Json;
    components[name] = rest;
  }
  return { components, named };
}

/** The properties of an object component as OpenAPI parameters. */
function parametersOf(component: Json | undefined, where: "query" | "path", names?: string[]) {
  const properties = (component?.properties ?? {}) as Record<string, Json>;
  const required = new Set((component?.required ?? []) as string[]);
  return (names ?? Object.keys(properties)).map((name) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    schema: properties[name] ?? { type: "string" },
  }));
}

function operationOf(
  entry: ApiRoute,
  parts: Partial<Record<SchemaPart, string>>,
  all: Record<string, Json>,
): Json {
  const path = documentPathOf(entry);
  const pathNames = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  const parameters = [
    ...parametersOf(parts.params ? all[parts.params] : undefined, "path", pathNames),
    ...(parts.query ? parametersOf(all[parts.query], "query") : []),
  ];
  let content: Json | undefined;
  if (parts.response) content = json(ref(parts.response));
  else if (entry.stream)
    content = {
      "text/event-stream": { schema: parts.stream ? ref(parts.stream) : { type: "string" } },
    };
  else if (entry.produces) content = { [entry.produces]: { schema: { type: "string" } } };
  const refused = { description: "Refused: `error` says why", content: json(ref("ErrorBody")) };
  const operation: Json = {
    operationId: operationIdOf(entry.route),
    summary: entry.summary,
    tags: [entry.tag],
    security: SECURITY[entry.auth],
    responses: {
      [String(entry.status ?? 200)]: {
        description: entry.summary,
        ...(content ? { content } : {}),
      },
      "4XX": refused,
    },
  };
  if (entry.description) operation.description = entry.description;
  if (entry.auth === "browser")
    operation.description =
      "Only from a signed-in browser session: a request with an API token is refused (403).";
  if (parameters.length) operation.parameters = parameters;
  if (parts.body) operation.requestBody = { required: true, content: json(ref(parts.body)) };
  if (parts.multipart)
    operation.requestBody = {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            allOf: [
              ref(parts.multipart),
              {
                type: "object",
                properties: {
                  file: { type: "string", contentMediaType: "application/octet-stream" },
                },
                required: ["file"],
              },
            ],
          },
        },
      },
    };
  return operation;
}

/** The names of the components a value refers to, followed through the components. */
function referenced(
  value: unknown,
  all: Record<string, Json>,
  found = new Set<string>(),
): Set<string> {
  if (Array.isArray(value)) for (const item of value) referenced(item, all, found);
  else if (value && typeof value === "object")
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") {
        const name = item.replace("#/components/schemas/", "");
        if (!found.has(name)) {
          found.add(name);
          referenced(all[name], all, found);
        }
      } else referenced(item, all, found);
    }
  return found;
}

/** The OpenAPI 3.1 document of the route table; built once at start-up. */
export function buildOpenApiDocument(
  routes: readonly ApiRoute[],
  options: { version: string; sessionCookie: string },
): OpenApiDocument {
  const { components, named } = convertSchemas(routes);
  const paths: OpenApiDocument["paths"] = {};
  const ids = new Set<string>();
  for (const entry of routes) {
    const id = operationIdOf(entry.route);
    if (ids.has(id)) throw new Error(`Two routes make operationId ${id}`);
    ids.add(id);
    const method = (entry.route.split(" ")[0] ?? "").toLowerCase();
    const path = documentPathOf(entry);
    paths[path] = {
      ...paths[path],
      [method]: operationOf(entry, named.get(entry) ?? {}, components),
    };
  }
  const used = referenced(paths, components);
  return {
    openapi: "3.1.0",
    info: {
      title: "Atelier API",
      version: options.version,
      description:
        "Atelier's HTTP API. A browser signs in and sends its session cookie (state changes also need this site's `Origin`); a script sends `Authorization: Bearer <token>` with a personal API token made from the account menu (API tokens) — it works wherever a session does, except for managing tokens.",
    },
    tags: [...new Set(routes.map((entry) => entry.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components).filter(([name]) => used.has(name))),
      securitySchemes: {
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: options.sessionCookie,
          description: "The session cookie set by signing in (POST /api/auth/sign-in/email).",
        },
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "A personal API token (account menu → API tokens). Revoked tokens answer 401.",
        },
      },
    },
  };
}
