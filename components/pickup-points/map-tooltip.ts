/**
 * A marker's tooltip for a pickup point's name. The name comes from a courier's feed, and Leaflet parses a string
 * tooltip as HTML, so the name goes in as an element's text: markup in it is shown, never rendered.
 */
export function pickupPointTooltip(name: string, document: Pick<Document, "createElement">): HTMLElement {
  const content = document.createElement("span");
  content.textContent = name;
  return content;
}
