/** What a user reads when ComfyUI cannot run a node, or a run there ends badly. */
export const COMFYUI_MESSAGES = {
  unsupported: (what: string, model: string) => `ComfyUI cannot run ${model} with ${what}.`,
  missing: (model: string, url: string, missing: string) =>
    `ComfyUI at ${url} cannot run ${model}: ${missing}.`,
  denied: (url: string, status: number) =>
    `ComfyUI at ${url} refused our credentials (HTTP ${status}): check COMFYUI_AUTH_HEADER.`,
  unreachable: "ComfyUI cannot be reached. Check that it is running and COMFYUI_URL is right.",
  rejected: (model: string, reason: string) => `ComfyUI refused the ${model} workflow: ${reason}`,
  failed: (reason: string) => `ComfyUI failed: ${reason}`,
  lost: "ComfyUI no longer knows this job (it was restarted?). Run the node again.",
  interrupted: "The run was stopped on ComfyUI.",
} as const;
