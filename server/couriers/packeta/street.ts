/**
 * A Czech street line as Packeta's `street` + `houseNumber` (home delivery). The house number is the number at the
 * end of the line, before any supplement after a comma: `12`, `12a`, `1234/5`, `1234/5 A` (a letter written apart is
 * joined: `1234/5A`), `12 / 3` (spaces around the slash dropped), and `č.p. 45` / `č. p. 45` (the prefix dropped). A
 * supplement after a comma ("byt 3", "vchod B") stays in `street`, after the street's name, so nothing the recipient
 * wrote is lost and `houseNumber` stays a number Packeta's carriers can match. A street name may contain numbers
 * ("28. října 12", "Třída 1. máje 5"); a line without a trailing number ("5. května", "Lhota") is all `street`.
 */
const HOUSE_NUMBER =
  /^(?<street>.*?\S)\s+(?:č\.\s*p\.\s*|čp\.?\s*)?(?<number>\d+\s*[a-zA-Z]?(?:\s*\/\s*\d+(?:\s*[a-zA-Z])?)?)$/u;

export function splitStreet(line: string): { street: string; houseNumber: string | undefined } {
  const text = line.trim().replace(/\s+/g, " ");
  const comma = text.indexOf(",");
  const candidates: [main: string, supplement: string | null][] = [[text, null]];
  // The supplement starts at the first comma after which the main part still ends in a number.
  if (comma > 0) candidates.unshift([text.slice(0, comma).trim(), text.slice(comma + 1).trim() || null]);
  for (const [main, supplement] of candidates) {
    const match = HOUSE_NUMBER.exec(main);
    if (!match?.groups) continue;
    const street = match.groups.street!.replace(/,$/, "");
    const houseNumber = match.groups.number!.replace(/\s+/g, "");
    return { street: supplement ? `${street}, ${supplement}` : street, houseNumber };
  }
  return { street: text, houseNumber: undefined };
}
