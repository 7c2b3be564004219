import type { AppSettings } from "@atelier/core";
import { describe, expect, it } from "vitest";
import {
  initialPicks,
  pickedRequest,
  publishCandidates,
} from "../src/features/apps/publish-candidates.ts";
import { node, values, wire } from "./helpers/graph.ts";

const PHOTO = "/api/media/file/u/w/1-a.png";

/** photo (an uploaded image) + prompt (text) → edit (FLUX.1 Kontext), and a note. */
function restyle() {
  const nodes = [
    node("edit", "flux-kontext", {
      label: "FLUX.1 Kontext",
      inputValues: values({ numImages: 1 }),
    }),
    node("photo", "utility", {
      label: "Utility",
      outputs: { imageUrl: PHOTO },
      outputValues: { output: { value: PHOTO } },
    }),
    node("prompt", "text", { label: "Style", inputValues: values({ text: "ink" }) }),
    node("note", "sticky-note-that-does-not-exist", {}),
  ];
  const edges = [
    wire("photo", "output", "edit", "image"),
    wire("prompt", "text", "edit", "prompt"),
  ];
  return { nodes, edges };
}

describe("what a workflow offers its app", () => {
  it("lists uploads, then text nodes, then the rest; prompts, seeds and choices first", () => {
    const { nodes, edges } = restyle();
    const candidates = publishCandidates(nodes, edges);
    expect(candidates.map((candidate) => candidate.nodeId)).toEqual(["photo", "prompt", "edit"]);
    const [photo, prompt, edit] = candidates;
    expect(photo).toEqual({
      nodeId: "photo",
      name: "Utility",
      params: [],
      media: { id: "photo/file", label: "Image" },
      output: null,
    });
    expect(prompt?.params).toEqual([
      { id: "prompt/text", param: "text", kind: "text", label: "Style", wired: false },
    ]);
    expect(prompt?.output).toBeNull();
    expect(edit?.output).toEqual({ label: "FLUX.1 Kontext" });
    expect(edit?.params.map((param) => [param.param, param.kind])).toEqual([
      ["prompt", "text"],
      ["seed", "seed"],
      ["model", "choice"],
      ["aspectRatio", "choice"],
      ["outputFormat", "choice"],
      ["safetyTolerance", "choice"],
      ["guidanceScale", "number"],
      ["numImages", "number"],
      ["enhancePrompt", "flag"],
    ]);
    // The model's own prompt is fed by the wire from "Style".
    expect(edit?.params[0]).toMatchObject({ label: "Prompt", wired: true });
  });

  it("does not offer an upload node that is wired into, nor one holding nothing", () => {
    const { nodes, edges } = restyle();
    const fed = publishCandidates(nodes, [...edges, wire("prompt", "text", "photo", "media")]);
    expect(fed.find((candidate) => candidate.nodeId === "photo")?.media).toBeNull();
    const empty = nodes.map((item) =>
      item.id === "photo" ? node("photo", "utility", { label: "Utility" }) : item,
    );
    expect(publishCandidates(empty, edges).find((c) => c.nodeId === "photo")?.media).toBeNull();
  });

  it("suggests the uploads, the free prompts and the final results for a first publish", () => {
    const { nodes, edges } = restyle();
    const candidates = publishCandidates(nodes, edges);
    const picks = initialPicks(candidates, edges, null);
    expect(picks).toEqual({
      fields: { "photo/file": "Image", "prompt/text": "Style" },
      outputs: { edit: "FLUX.1 Kontext" },
    });
    expect(pickedRequest(candidates, picks)).toEqual({
      fields: [
        { kind: "media", nodeId: "photo", label: "Image" },
        { kind: "param", nodeId: "prompt", param: "text", label: "Style" },
      ],
      outputs: [{ nodeId: "edit", label: "FLUX.1 Kontext" }],
    });
  });

  it("reopens with the published picks; an empty label is the suggested one; gone nodes drop", () => {
    const { nodes, edges } = restyle();
    const candidates = publishCandidates(nodes, edges);
    const settings: AppSettings = {
      slug: "restyle-abc",
      name: "Restyle",
      description: "",
      access: "public",
      version: 2,
      publishedAt: "2026-11-25T00:00:00.000Z",
      fields: [
        { kind: "param", nodeId: "edit", param: "seed" },
        { kind: "media", nodeId: "photo", label: "Your photo" },
        { kind: "param", nodeId: "gone", param: "text", label: "Old" },
      ],
      outputs: [{ nodeId: "edit", label: "Result" }],
    };
    const picks = initialPicks(candidates, edges, settings);
    expect(picks.fields).toEqual({
      "edit/seed": "",
      "photo/file": "Your photo",
      "gone/text": "Old",
    });
    expect(pickedRequest(candidates, picks)).toEqual({
      fields: [
        { kind: "media", nodeId: "photo", label: "Your photo" },
        { kind: "param", nodeId: "edit", param: "seed", label: "Seed" },
      ],
      outputs: [{ nodeId: "edit", label: "Result" }],
    });
  });
});
