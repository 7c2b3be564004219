/*
 * The e2e suite's GPU server: a third Atelier whose open-weight nodes run on a fake ComfyUI
 * on loopback (apps/server/test/fakes/comfyui-process.ts), which holds each run at its first
 * sampler step until released; fal's nodes go to the priced server's fake fal.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
export const GPU_PORT = port + 24;
export const FAKE_COMFYUI_PORT = port + 25;
export const GPU_URL = `http://127.0.0.1:${GPU_PORT}`;
export const FAKE_COMFYUI_URL = `http://127.0.0.1:${FAKE_COMFYUI_PORT}`;
