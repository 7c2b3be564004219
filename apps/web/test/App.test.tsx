import { listNodeDefinitions } from "@atelier/core";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { App } from "../src/app/App.tsx";

describe("App shell", () => {
  it("lists every node family with its node types from the catalogue", () => {
    render(<App />);
    expect(screen.getByText(`${listNodeDefinitions().length} node types available.`)).toBeTruthy();
    expect(screen.getByRole("region", { name: "Containers & notes" })).toBeTruthy();
    expect(screen.getByText("Veo 3")).toBeTruthy();
  });
});
