import { describe, expect, it } from "vitest";
import { pickupPointTooltip } from "./map-tooltip";

/** Just enough of a DOM element to see how the tooltip's content is filled: as text, or as markup to parse. */
class RecordingElement {
  textContent: string | null = null;
  parsedMarkup: string[] = [];
  constructor(readonly tagName: string) {}
  set innerHTML(markup: string) {
    this.parsedMarkup.push(markup);
  }
  insertAdjacentHTML(_position: string, markup: string) {
    this.parsedMarkup.push(markup);
  }
}

const recordingDocument = {
  createElement: (tagName: string) => new RecordingElement(tagName),
} as unknown as Pick<Document, "createElement">;

describe("pickupPointTooltip", () => {
  it("gives Leaflet an element holding a feed's name as text, so markup in the name is never parsed", () => {
    const name = 'Evil shop <a href="https://phish.example/login" id="injected">Sign in again</a><img src=x>';
    const content = pickupPointTooltip(name, recordingDocument) as unknown as RecordingElement;
    // A string would be parsed as HTML by Leaflet's tooltip; an element is inserted as it is.
    expect(typeof content).toBe("object");
    expect(content.tagName).toBe("span");
    expect(content.textContent).toBe(name);
    expect(content.parsedMarkup).toEqual([]);
  });
});
