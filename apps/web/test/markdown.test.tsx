import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import Markdown from "../src/features/nodes/special/Markdown.tsx";

afterEach(cleanup);

describe("Markdown (notepad, markdown viewer)", () => {
  it("formats GFM: headings, emphasis, lists, tables, strikethrough", () => {
    const { container } = render(
      <Markdown
        text={"# Title\n\n**bold** ~~old~~\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |"}
      />,
    );
    expect(container.querySelector("h1")?.textContent).toBe("Title");
    expect(container.querySelector("strong")?.textContent).toBe("bold");
    expect(container.querySelector("del")?.textContent).toBe("old");
    expect([...container.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["a", "b"]);
    expect([...container.querySelectorAll("td")].map((td) => td.textContent)).toEqual(["1", "2"]);
  });

  it("drops raw HTML and unsafe link targets; safe links open in a new tab", () => {
    const { container } = render(
      <Markdown
        text={[
          "<script>alert(1)</script>",
          '<img src="x" onerror="alert(2)">',
          "[bad](javascript:alert(3))",
          "[data](data:text/html,hi)",
          "[good](https://example.com)",
        ].join("\n\n")}
      />,
    );
    expect(container.querySelectorAll("script, img, [onerror]")).toHaveLength(0);
    const links = [...container.querySelectorAll("a")];
    // A refused target leaves the link without an address (no `href=""` back to this page).
    expect(links.map((link) => link.getAttribute("href"))).toEqual([
      null,
      null,
      "https://example.com",
    ]);
    const good = links[2] as HTMLAnchorElement;
    expect(good.target).toBe("_blank");
    expect(good.rel).toBe("noopener noreferrer nofollow");
  });

  it("keeps links and images to the allow-list: no script, text document, other-site trick or relative path", () => {
    const { container } = render(
      <Markdown
        text={[
          "[a](JaVaScRiPt:alert(1)) [b](vbscript:msgbox(1)) [c](//evil.example/x)",
          "[d](/api/auth/sign-out) [e](data:image/svg+xml,<svg/>) [f](mailto:team@example.com)",
          "[g](/api/media/file/a.png)",
          "![h](javascript:alert(1)) ![i](//evil.example/x.png) ![j](data:text/html,hi)",
          "![k](https://cdn.example.com/k.png) ![l](/api/media/file/l.png)",
        ].join("\n\n")}
      />,
    );
    expect([...container.querySelectorAll("a")].map((link) => link.getAttribute("href"))).toEqual([
      null,
      null,
      null,
      null,
      null,
      "mailto:team@example.com",
      "/api/media/file/a.png",
    ]);
    expect([...container.querySelectorAll("img")].map((img) => img.getAttribute("src"))).toEqual([
      null,
      null,
      null,
      "https://cdn.example.com/k.png",
      "/api/media/file/l.png",
    ]);
  });
});
