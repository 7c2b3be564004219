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
    expect(links.map((link) => link.getAttribute("href"))).toEqual(["", "", "https://example.com"]);
    const good = links[2] as HTMLAnchorElement;
    expect(good.target).toBe("_blank");
    expect(good.rel).toBe("noopener noreferrer nofollow");
  });
});
