import { choice, input, integer, number, output, params, prompt, text } from "./define.ts";
import type { NodeDefinition } from "./types.ts";

export const textNodes: NodeDefinition[] = [
  {
    type: "text",
    displayName: "Text",
    category: "text",
    inputs: [],
    outputs: [output("text", "Text", "text")],
    params: params({ text: text("", "Text") }),
    run: { kind: "none" },
  },
  {
    type: "gemini-text",
    displayName: "Gemini",
    category: "text",
    inputs: [
      input("prompt", "Prompt", "text", { required: true }),
      input("image", "Images", "image", { multiple: true }),
    ],
    outputs: [output("text", "Text", "text")],
    params: params({
      prompt: prompt(),
      systemPrompt: text("", "System instructions"),
      model: choice(
        ["gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-2.5-pro"],
        "gemini-2.5-flash",
        "Model",
      ),
      temperature: number(0, 2, 1, "Temperature"),
      maxOutputTokens: integer(1, 65_536, 8192, "Maximum output tokens"),
    }),
    run: { kind: "provider" },
  },
];
