import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "./safe-callback-url";

/** Where a browser on https://app.example goes when told to navigate to `target` (router.replace resolves so too). */
const landsOn = (target: string) => new URL(target, "https://app.example/sign-in").origin;

describe("safeCallbackUrl", () => {
  it("keeps a path on this site, with its query and fragment", () => {
    expect(safeCallbackUrl("/dashboard/orders?status=new#top")).toBe("/dashboard/orders?status=new#top");
    expect(safeCallbackUrl(["/dashboard/keys", "/other"])).toBe("/dashboard/keys");
  });

  it("sends everything that would leave the site to the dashboard", () => {
    // The search parameter arrives decoded: `?callbackUrl=/%09/evil.example` is "/\t/evil.example".
    const crafted = [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "\t//evil.example",
      "//evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "/ /evil.example",
      "/\u0000/evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "/%2F%2Fevil.example",
      "",
    ];
    for (const value of crafted) {
      const result = safeCallbackUrl(value);
      expect(landsOn(result), JSON.stringify(value)).toBe("https://app.example");
      expect(result.startsWith("//"), JSON.stringify(value)).toBe(false);
    }
    expect(safeCallbackUrl("/\t/evil.example")).toBe("/dashboard");
    expect(safeCallbackUrl(undefined)).toBe("/dashboard");
  });
});
