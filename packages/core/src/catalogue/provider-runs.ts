import type { ProviderRun } from "./types.ts";

/**
 * Which service runs each provider node, at which endpoints: the server's business
 * (run-target.ts), kept apart from the definitions so the editor's first load does not carry
 * it (DESIGN §7). A `comfyui` variant: the operator's own ComfyUI runs the open-weight model
 * (apps/server/src/providers/comfyui/templates) when the node's own provider has no key.
 */
export const PROVIDER_RUNS: Readonly<Record<string, ProviderRun>> = {
  "gemini-text": {
    provider: "google",
    endpoint: "models/gemini-2.5-flash:generateContent",
    variants: { fal: "openrouter/router", "fal-vision": "openrouter/router/vision" },
  },
  "gpt-image": {
    provider: "fal",
    endpoint: "fal-ai/gpt-image-1/text-to-image",
    variants: { edit: "fal-ai/gpt-image-1/edit-image", openai: "gpt-image-1" },
  },
  imagen: {
    provider: "fal",
    endpoint: "fal-ai/imagen4/preview",
    variants: { fast: "fal-ai/imagen4/preview/fast", ultra: "fal-ai/imagen4/preview/ultra" },
  },
  ideogram: {
    provider: "fal",
    endpoint: "fal-ai/ideogram/v3",
    variants: { remix: "fal-ai/ideogram/v3/remix", character: "fal-ai/ideogram/character" },
  },
  "flux-kontext": {
    provider: "fal",
    endpoint: "fal-ai/flux-pro/kontext/text-to-image",
    variants: {
      edit: "fal-ai/flux-pro/kontext",
      multi: "fal-ai/flux-pro/kontext/multi",
      "max-text-to-image": "fal-ai/flux-pro/kontext/max/text-to-image",
      "max-edit": "fal-ai/flux-pro/kontext/max",
      "max-multi": "fal-ai/flux-pro/kontext/max/multi",
      comfyui: "comfyui/flux-kontext",
    },
  },
  "flux-pro": {
    provider: "fal",
    endpoint: "fal-ai/flux-pro/v1.1",
    variants: { ultra: "fal-ai/flux-pro/v1.1-ultra", redux: "fal-ai/flux-pro/v1.1/redux" },
  },
  "flux-spro": {
    provider: "fal",
    endpoint: "fal-ai/flux/srpo",
    variants: {
      "image-to-image": "fal-ai/flux/srpo/image-to-image",
      "control-canny": "fal-ai/flux-control-lora-canny",
      "control-depth": "fal-ai/flux-control-lora-depth",
      comfyui: "comfyui/flux-spro",
    },
  },
  seedream: {
    provider: "fal",
    endpoint: "fal-ai/bytedance/seedream/v4/text-to-image",
    variants: {
      edit: "fal-ai/bytedance/seedream/v4/edit",
      "v4.5": "fal-ai/bytedance/seedream/v4.5/text-to-image",
      "v4.5-edit": "fal-ai/bytedance/seedream/v4.5/edit",
    },
  },
  dreamina: { provider: "fal", endpoint: "fal-ai/bytedance/dreamina/v3.1/text-to-image" },
  qwen: {
    provider: "fal",
    endpoint: "fal-ai/qwen-image",
    variants: {
      "image-to-image": "fal-ai/qwen-image/image-to-image",
      edit: "fal-ai/qwen-image-edit-plus",
      comfyui: "comfyui/qwen",
    },
  },
  minimax: {
    provider: "fal",
    endpoint: "fal-ai/minimax/image-01",
    variants: { "subject-reference": "fal-ai/minimax/image-01/subject-reference" },
  },
  "google-flash": {
    provider: "fal",
    endpoint: "fal-ai/gemini-25-flash-image",
    variants: { edit: "fal-ai/gemini-25-flash-image/edit", google: "gemini-2.5-flash-image" },
  },
  "hunyuan-v3": {
    provider: "fal",
    endpoint: "fal-ai/hunyuan-image/v3/text-to-image",
    variants: { edit: "fal-ai/hunyuan-image/v3/instruct/edit" },
  },
  reve: {
    provider: "fal",
    endpoint: "fal-ai/reve/text-to-image",
    variants: { edit: "fal-ai/reve/edit", remix: "fal-ai/reve/remix" },
  },
  lucid: { provider: "leonardo", endpoint: "7b592283-e8a7-4c5a-9ba6-d18c31f258b9" },
  "luma-photon": {
    provider: "fal",
    endpoint: "fal-ai/luma-photon",
    variants: { flash: "fal-ai/luma-photon/flash", modify: "fal-ai/luma-photon/modify" },
  },
  mystic: { provider: "freepik", endpoint: "v1/ai/mystic" },
  "runway-image": { provider: "runway", endpoint: "v1/text_to_image" },
  video: {
    provider: "fal",
    endpoint: "fal-ai/veo3.1/fast",
    variants: { "image-to-video": "fal-ai/veo3.1/fast/image-to-video" },
  },
  "veo-video": {
    provider: "fal",
    endpoint: "fal-ai/veo2",
    variants: { "image-to-video": "fal-ai/veo2/image-to-video", google: "veo-2.0-generate-001" },
  },
  "veo3-video": {
    provider: "fal",
    endpoint: "fal-ai/veo3",
    variants: {
      fast: "fal-ai/veo3/fast",
      "image-to-video": "fal-ai/veo3/image-to-video",
      "fast-image-to-video": "fal-ai/veo3/fast/image-to-video",
      google: "veo-3.0-generate-001",
    },
  },
  "veo31-video": {
    provider: "fal",
    endpoint: "fal-ai/veo3.1",
    variants: {
      "text-to-video": "fal-ai/veo3.1",
      "image-to-video": "fal-ai/veo3.1/image-to-video",
      "first-last-frame": "fal-ai/veo3.1/first-last-frame-to-video",
      "reference-images": "fal-ai/veo3.1/reference-to-video",
      fast: "fal-ai/veo3.1/fast",
      "fast-image-to-video": "fal-ai/veo3.1/fast/image-to-video",
      "fast-first-last-frame": "fal-ai/veo3.1/fast/first-last-frame-to-video",
      lite: "fal-ai/veo3.1/lite",
      "lite-image-to-video": "fal-ai/veo3.1/lite/image-to-video",
      "lite-first-last-frame": "fal-ai/veo3.1/lite/first-last-frame-to-video",
      google: "veo-3.1-generate-preview",
    },
  },
  "vidu-q2": {
    provider: "fal",
    endpoint: "fal-ai/vidu/q2/text-to-video",
    variants: {
      "image-to-video": "fal-ai/vidu/q2/image-to-video/pro",
      "reference-to-video": "fal-ai/vidu/q2/reference-to-video/pro",
    },
  },
  "ltx-2-video": {
    provider: "fal",
    endpoint: "fal-ai/ltx-2/text-to-video",
    variants: {
      "image-to-video": "fal-ai/ltx-2/image-to-video",
      fast: "fal-ai/ltx-2/text-to-video/fast",
      retake: "fal-ai/ltx-2/retake-video",
      comfyui: "comfyui/ltx-2-video",
    },
  },
  hailuo: {
    provider: "fal",
    endpoint: "fal-ai/minimax/hailuo-02/standard/text-to-video",
    variants: {
      "image-to-video": "fal-ai/minimax/hailuo-02/standard/image-to-video",
      pro: "fal-ai/minimax/hailuo-02/pro/text-to-video",
      "pro-image-to-video": "fal-ai/minimax/hailuo-02/pro/image-to-video",
    },
  },
  seedance: {
    provider: "fal",
    endpoint: "fal-ai/bytedance/seedance/v1/pro/text-to-video",
    variants: {
      "image-to-video": "fal-ai/bytedance/seedance/v1/pro/image-to-video",
      "lite-reference": "fal-ai/bytedance/seedance/v1/lite/reference-to-video",
    },
  },
  "wan-video": {
    provider: "fal",
    endpoint: "fal-ai/wan/v2.2-a14b/text-to-video",
    variants: {
      "image-to-video": "fal-ai/wan/v2.2-a14b/image-to-video",
      "video-to-video": "fal-ai/wan/v2.2-a14b/video-to-video",
      "v2.5-text-to-video": "fal-ai/wan-25-preview/text-to-video",
      "v2.5-image-to-video": "fal-ai/wan-25-preview/image-to-video",
      comfyui: "comfyui/wan-video",
    },
  },
  "wan-animate": {
    provider: "fal",
    endpoint: "fal-ai/wan/v2.2-14b/animate/move",
    variants: { replace: "fal-ai/wan/v2.2-14b/animate/replace" },
  },
  "kling-video": {
    provider: "fal",
    endpoint: "fal-ai/kling-video/v2.1/master/text-to-video",
    variants: {
      "image-to-video": "fal-ai/kling-video/v2.1/master/image-to-video",
      "pro-image-to-video": "fal-ai/kling-video/v2.1/pro/image-to-video",
    },
  },
  moonvalley: {
    provider: "fal",
    endpoint: "moonvalley/marey/t2v",
    variants: {
      "image-to-video": "moonvalley/marey/i2v",
      "motion-transfer": "moonvalley/marey/motion-transfer",
    },
  },
  "runway-video": { provider: "runway", endpoint: "v1/image_to_video" },
  "runway-aleph": {
    provider: "runway",
    endpoint: "v1/video_to_video",
    variants: { replicate: "runwayml/gen4-aleph" },
  },
  "luma-ray": {
    provider: "fal",
    endpoint: "fal-ai/luma-dream-machine/ray-2",
    variants: {
      "image-to-video": "fal-ai/luma-dream-machine/ray-2/image-to-video",
      luma: "generations/video",
    },
  },
  "luma-modify": {
    provider: "fal",
    endpoint: "fal-ai/luma-dream-machine/ray-2/modify",
    variants: { luma: "generations/video/modify" },
  },
  "luma-reframe": {
    provider: "fal",
    endpoint: "fal-ai/luma-dream-machine/ray-2/reframe",
    variants: { luma: "generations/video/reframe" },
  },
  "motion-2": {
    provider: "leonardo",
    endpoint: "motion_2.0",
    variants: { replicate: "leonardoai/motion-2.0" },
  },
  "sora-video": {
    provider: "openai",
    endpoint: "v1/videos",
    variants: {
      fal: "fal-ai/sora-2/text-to-video",
      "fal-image-to-video": "fal-ai/sora-2/image-to-video",
    },
  },
  "3d": {
    provider: "fal",
    endpoint: "fal-ai/hunyuan3d/v2",
    variants: { turbo: "fal-ai/hunyuan3d/v2/turbo", comfyui: "comfyui/3d" },
  },
  "3d-multiview": {
    provider: "fal",
    endpoint: "fal-ai/hunyuan3d/v2/multi-view",
    variants: { comfyui: "comfyui/3d-multiview" },
  },
  "tripo-3d": { provider: "fal", endpoint: "tripo3d/tripo/v2.5/image-to-3d" },
  "tripo-3d-multiview": { provider: "fal", endpoint: "tripo3d/tripo/v2.5/multiview-to-3d" },
  "rodin-3d": {
    provider: "fal",
    endpoint: "fal-ai/hyper3d/rodin/v2",
    variants: { gen1: "fal-ai/hyper3d/rodin" },
  },
  "meshy-v6": {
    provider: "fal",
    endpoint: "fal-ai/meshy/v6/image-to-3d",
    variants: { meshy: "openapi/v1/image-to-3d" },
  },
  "seed-3d": { provider: "fal", endpoint: "fal-ai/bytedance/seed3d/image-to-3d" },
  "elevenlabs-v3": {
    provider: "fal",
    endpoint: "fal-ai/elevenlabs/tts/eleven-v3",
    variants: { elevenlabs: "v1/text-to-speech" },
  },
  "elevenlabs-sfx": {
    provider: "fal",
    endpoint: "fal-ai/elevenlabs/sound-effects/v2",
    variants: { elevenlabs: "v1/sound-generation" },
  },
  "mirelo-sfx": { provider: "fal", endpoint: "mirelo-ai/sfx-v1/video-to-audio" },
  "sonauto-music": { provider: "fal", endpoint: "sonauto/v2/text-to-music" },
  "minimax-music": {
    provider: "fal",
    endpoint: "fal-ai/minimax-music/v2",
    variants: { "v1.5": "fal-ai/minimax-music/v1.5" },
  },
  "voice-clone": {
    provider: "fal",
    endpoint: "fal-ai/minimax/voice-clone",
    variants: { elevenlabs: "v1/voices/add" },
  },
  "stable-audio": {
    provider: "fal",
    endpoint: "fal-ai/stable-audio-25/text-to-audio",
    variants: { replicate: "stability-ai/stable-audio-2.5" },
  },
  "audio-isolation": {
    provider: "fal",
    endpoint: "fal-ai/elevenlabs/audio-isolation",
    variants: { elevenlabs: "v1/audio-isolation" },
  },
  "lip-sync": { provider: "fal", endpoint: "fal-ai/sync-lipsync/v2" },
  "bg-remover": { provider: "fal", endpoint: "fal-ai/birefnet/v2" },
  upscaler: {
    provider: "fal",
    endpoint: "fal-ai/clarity-upscaler",
    variants: { esrgan: "fal-ai/esrgan", comfyui: "comfyui/upscaler" },
  },
  "magnific-upscaler": { provider: "freepik", endpoint: "v1/ai/image-upscaler" },
  "video-upscaler": {
    provider: "fal",
    endpoint: "fal-ai/topaz/upscale/video",
    variants: {
      bria: "bria/video/increase-resolution",
      realesrgan: "fal-ai/video-upscaler",
      seedvr: "fal-ai/seedvr/upscale/video",
      comfyui: "comfyui/video-upscaler",
    },
  },
  "video-bg-remover": { provider: "fal", endpoint: "fal-ai/birefnet/v2/video" },
  stylizer: { provider: "fal", endpoint: "fal-ai/image-apps-v2/style-transfer" },
  vectorize: { provider: "fal", endpoint: "fal-ai/recraft/vectorize" },
  reframe: {
    provider: "fal",
    endpoint: "fal-ai/luma-photon/reframe",
    variants: { ideogram: "fal-ai/ideogram/v3/reframe" },
  },
  "magnific-relight": { provider: "freepik", endpoint: "v1/ai/image-relight" },
  "merge-videos": { provider: "fal", endpoint: "fal-ai/ffmpeg-api/merge-videos" },
  "merge-audio-video": { provider: "fal", endpoint: "fal-ai/ffmpeg-api/merge-audio-video" },
  "virtual-tryon": {
    provider: "fal",
    endpoint: "fal-ai/kling/v1-5/kolors-virtual-try-on",
    variants: { fashn: "fal-ai/fashn/tryon/v1.6" },
  },
  "moondream-v3": {
    provider: "fal",
    endpoint: "fal-ai/moondream3-preview/caption",
    variants: { query: "fal-ai/moondream3-preview/query" },
  },
  "synthetic-humans": {
    provider: "fal",
    endpoint: "fal-ai/flux-pro/kontext/text-to-image",
    variants: { edit: "fal-ai/flux-pro/kontext" },
  },
};
