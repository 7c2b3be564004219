import { pathToFileURL } from "node:url";
import { startFakeComfyUI } from "./comfyui-server.ts";

/**
 * The fake ComfyUI as a process, for the e2e suite's GPU server: on FAKE_COMFYUI_PORT, each
 * run held at its first sampler step until `POST /__fake/release` (so progress can be seen).
 */
async function main() {
  const comfy = await startFakeComfyUI({ port: Number(process.env.FAKE_COMFYUI_PORT) });
  comfy.state.hold = true;
  console.log(`fake ComfyUI on ${comfy.url}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) void main();
