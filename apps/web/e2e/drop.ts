import type { JSHandle, Page } from "@playwright/test";

/**
 * A DataTransfer in the page holding one file, as a drop from the desktop carries it. With
 * no `text`, the file is a real 160×120 PNG drawn by the browser.
 */
export function transferOf(
  page: Page,
  name: string,
  text?: string,
  type = "text/plain",
): Promise<JSHandle<DataTransfer>> {
  return page.evaluateHandle(
    async ({ name, text, type }) => {
      let file: File;
      if (text !== undefined) file = new File([text], name, { type });
      else {
        const canvas = document.createElement("canvas");
        canvas.width = 160;
        canvas.height = 120;
        const context = canvas.getContext("2d") as CanvasRenderingContext2D;
        context.fillStyle = "#3b82f6";
        context.fillRect(0, 0, 160, 120);
        context.fillStyle = "#f59e0b";
        context.fillRect(40, 30, 80, 60);
        const blob = await new Promise<Blob>((resolve, reject) =>
          canvas.toBlob(
            (made) => (made ? resolve(made) : reject(new Error("no PNG"))),
            "image/png",
          ),
        );
        file = new File([blob], name, { type: "image/png" });
      }
      const transfer = new DataTransfer();
      transfer.items.add(file);
      return transfer;
    },
    { name, text, type },
  );
}

/** Drags the transfer over the pane and drops it at (x, y) from the pane's top-left. */
export async function dropOnPane(
  page: Page,
  dataTransfer: JSHandle<DataTransfer>,
  x = 200,
  y = 160,
) {
  const pane = page.locator(".react-flow__pane");
  const box = await pane.boundingBox();
  if (!box) throw new Error("pane not visible");
  const at = { clientX: box.x + x, clientY: box.y + y };
  for (const type of ["dragenter", "dragover", "drop"])
    await pane.dispatchEvent(type, { dataTransfer, ...at });
}
