import { createRandom, type Random } from "../../lib/random";
import type { OpeningInterval, PointType, SizeCm } from "../../db/schema/pickup-points";
import type { DirectoryPoint } from "./directory-point";

/**
 * A deterministic synthetic pickup-point directory of realistic shape and size: points clustered around real towns
 * of Czechia, Slovakia and their neighbours (by population weight), with Czech/Slovak/German/Polish/Hungarian street
 * names with their accents, opening hours, lockers with weight and size limits, some points closed. The fake feeds
 * serve it in each courier's documented shape (Packeta's strings and `{}`, PPL's paged `AccessPointModel`), so the
 * sync, the search, the picker, the widget, the tests, the bench and `npm run dev` all run on the same data with no
 * courier account. Same seed and count → the same points, in the same order.
 */

type Town = { name: string; country: string; lat: number; lon: number; zip: string; weight: number };

/** Towns with their centre, a zip of theirs and a rough weight (population in tens of thousands). */
export const TOWNS: readonly Town[] = [
  { name: "Praha", country: "CZ", lat: 50.0755, lon: 14.4378, zip: "110 00", weight: 130 },
  { name: "Brno", country: "CZ", lat: 49.1951, lon: 16.6068, zip: "602 00", weight: 38 },
  { name: "Ostrava", country: "CZ", lat: 49.8209, lon: 18.2625, zip: "702 00", weight: 28 },
  { name: "Plzeň", country: "CZ", lat: 49.7384, lon: 13.3736, zip: "301 00", weight: 17 },
  { name: "Liberec", country: "CZ", lat: 50.7663, lon: 15.0543, zip: "460 01", weight: 10 },
  { name: "Olomouc", country: "CZ", lat: 49.5938, lon: 17.2509, zip: "779 00", weight: 10 },
  { name: "České Budějovice", country: "CZ", lat: 48.9745, lon: 14.4743, zip: "370 01", weight: 9 },
  { name: "Hradec Králové", country: "CZ", lat: 50.2092, lon: 15.8328, zip: "500 02", weight: 9 },
  { name: "Ústí nad Labem", country: "CZ", lat: 50.6607, lon: 14.0323, zip: "400 01", weight: 9 },
  { name: "Pardubice", country: "CZ", lat: 50.0343, lon: 15.7812, zip: "530 02", weight: 9 },
  { name: "Zlín", country: "CZ", lat: 49.2265, lon: 17.6707, zip: "760 01", weight: 7 },
  { name: "Havířov", country: "CZ", lat: 49.7798, lon: 18.4369, zip: "736 01", weight: 7 },
  { name: "Kladno", country: "CZ", lat: 50.1473, lon: 14.1029, zip: "272 01", weight: 7 },
  { name: "Most", country: "CZ", lat: 50.503, lon: 13.6362, zip: "434 01", weight: 6 },
  { name: "Opava", country: "CZ", lat: 49.9387, lon: 17.9026, zip: "746 01", weight: 6 },
  { name: "Jihlava", country: "CZ", lat: 49.3961, lon: 15.5912, zip: "586 01", weight: 5 },
  { name: "Karlovy Vary", country: "CZ", lat: 50.2319, lon: 12.8714, zip: "360 01", weight: 5 },
  { name: "Třebíč", country: "CZ", lat: 49.2148, lon: 15.8817, zip: "674 01", weight: 3 },
  { name: "Písek", country: "CZ", lat: 49.3088, lon: 14.1475, zip: "397 01", weight: 3 },
  { name: "Čáslav", country: "CZ", lat: 49.9108, lon: 15.3897, zip: "286 01", weight: 1 },
  { name: "Bratislava", country: "SK", lat: 48.1486, lon: 17.1077, zip: "811 01", weight: 47 },
  { name: "Košice", country: "SK", lat: 48.7164, lon: 21.2611, zip: "040 01", weight: 23 },
  { name: "Prešov", country: "SK", lat: 48.9985, lon: 21.2339, zip: "080 01", weight: 8 },
  { name: "Žilina", country: "SK", lat: 49.2231, lon: 18.7394, zip: "010 01", weight: 8 },
  { name: "Nitra", country: "SK", lat: 48.3069, lon: 18.0864, zip: "949 01", weight: 8 },
  { name: "Banská Bystrica", country: "SK", lat: 48.7363, lon: 19.1462, zip: "974 01", weight: 7 },
  { name: "Trnava", country: "SK", lat: 48.3774, lon: 17.5872, zip: "917 01", weight: 6 },
  { name: "Trenčín", country: "SK", lat: 48.8945, lon: 18.0444, zip: "911 01", weight: 5 },
  { name: "Wrocław", country: "PL", lat: 51.1079, lon: 17.0385, zip: "50-001", weight: 64 },
  { name: "Kraków", country: "PL", lat: 50.0647, lon: 19.945, zip: "30-001", weight: 78 },
  { name: "Katowice", country: "PL", lat: 50.2649, lon: 19.0238, zip: "40-001", weight: 29 },
  { name: "Łódź", country: "PL", lat: 51.7592, lon: 19.456, zip: "90-001", weight: 67 },
  { name: "Dresden", country: "DE", lat: 51.0504, lon: 13.7373, zip: "01067", weight: 56 },
  { name: "München", country: "DE", lat: 48.1351, lon: 11.582, zip: "80331", weight: 150 },
  { name: "Nürnberg", country: "DE", lat: 49.4521, lon: 11.0767, zip: "90402", weight: 52 },
  { name: "Leipzig", country: "DE", lat: 51.3397, lon: 12.3731, zip: "04109", weight: 60 },
  { name: "Wien", country: "AT", lat: 48.2082, lon: 16.3738, zip: "1010", weight: 190 },
  { name: "Linz", country: "AT", lat: 48.3069, lon: 14.2858, zip: "4020", weight: 21 },
  { name: "Graz", country: "AT", lat: 47.0707, lon: 15.4395, zip: "8010", weight: 29 },
  { name: "Budapest", country: "HU", lat: 47.4979, lon: 19.0402, zip: "1051", weight: 170 },
  { name: "Győr", country: "HU", lat: 47.6875, lon: 17.6504, zip: "9021", weight: 13 },
];

const STREETS: Record<string, readonly string[]> = {
  CZ: [
    "Náměstí Míru",
    "Husova",
    "Masarykova",
    "Palackého",
    "Žižkova",
    "Nádražní",
    "Komenského",
    "Škroupova",
    "Třída Svobody",
    "Dlouhá",
    "Příčná",
    "Jiráskova",
  ],
  SK: ["Hlavná", "Štúrova", "Námestie SNP", "Mlynská", "Obchodná", "Železničná", "Športová", "Záhradnícka"],
  PL: ["ulica Długa", "Świętokrzyska", "Piłsudskiego", "Mickiewicza", "Żeromskiego", "Kościuszki"],
  DE: ["Hauptstraße", "Bahnhofstraße", "Schloßstraße", "Gartenstraße", "Müllerstraße", "Königstraße"],
  AT: ["Hauptplatz", "Landstraße", "Mariahilfer Straße", "Kärntner Straße", "Gürtel"],
  HU: ["Fő utca", "Petőfi Sándor utca", "Kossuth Lajos utca", "Rákóczi út", "Széchenyi tér"],
};

const HOSTS = [
  "Trafika",
  "Papírnictví",
  "Květinářství",
  "Večerka",
  "Drogerie",
  "Kavárna",
  "Potraviny",
  "Knihkupectví",
  "Čistírna",
  "Lékárna",
];

const pad = (n: number) => String(n).padStart(2, "0");

function openingHours(random: Random, type: PointType): OpeningInterval[] {
  if (type === "LOCKER") return [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: "00:00", to: "23:59" }));
  const from = random.pick([7, 8, 9]);
  const to = random.pick([17, 18, 19, 20]);
  const lunch = random.chance(0.3);
  const hours: OpeningInterval[] = [];
  for (let day = 1; day <= 5; day++) {
    if (lunch) {
      hours.push({ day, from: `${pad(from)}:00`, to: "12:00" }, { day, from: "13:00", to: `${pad(to)}:00` });
    } else hours.push({ day, from: `${pad(from)}:00`, to: `${pad(to)}:00` });
  }
  if (random.chance(0.6)) hours.push({ day: 6, from: "09:00", to: "12:00" });
  if (random.chance(0.15)) hours.push({ day: 7, from: "10:00", to: "16:00" });
  return hours;
}

/** Czech and Slovak points are denser than their neighbours' (the couriers' home markets). */
const townWeight = (town: Town) => town.weight * (town.country === "CZ" ? 5 : town.country === "SK" ? 3 : 1);

function pickTown(random: Random, totalWeight: number): Town {
  let r = random.next() * totalWeight;
  for (const town of TOWNS) {
    r -= townWeight(town);
    if (r < 0) return town;
  }
  return TOWNS[TOWNS.length - 1]!;
}

/** A zip near the town's own: same leading digits, last ones varied, in the country's own layout. */
function zipNear(random: Random, town: Town): string {
  const digits = town.zip.replace(/\D/g, "");
  const varied = digits.slice(0, Math.max(1, digits.length - 2)) + pad(random.int(0, 99));
  if (town.country === "CZ" || town.country === "SK") return `${varied.slice(0, 3)} ${varied.slice(3)}`;
  if (town.country === "PL") return `${varied.slice(0, 2)}-${varied.slice(2)}`;
  return varied;
}

export type SyntheticOptions = {
  courier: "packeta" | "ppl";
  /** How many points; the default is the demo's size. */
  count?: number;
  seed?: number;
  /** ISO date of "today", for `closedSince` (defaults to a fixed date, so the output is deterministic). */
  today?: string;
};

export const DEFAULT_SYNTHETIC_COUNT = { packeta: 30_000, ppl: 12_000 } as const;

/**
 * The points of one courier's synthetic directory. A generator, so a feed of 100,000 points is written to its
 * answer as it is made rather than built in memory first.
 */
export function* syntheticPoints(options: SyntheticOptions): Generator<DirectoryPoint> {
  const { courier } = options;
  const count = options.count ?? DEFAULT_SYNTHETIC_COUNT[courier];
  const random = createRandom(options.seed ?? 20261127).fork(courier);
  const totalWeight = TOWNS.reduce((sum, town) => sum + townWeight(town), 0);
  const closedSince = options.today ?? "2026-11-01";
  for (let i = 0; i < count; i++) {
    const town = pickTown(random, totalWeight);
    // Spread around the centre: most within ~6 km, a tail to ~25 km (suburbs and villages).
    const spread = random.chance(0.8) ? 0.06 : 0.22;
    const latitude = Number((town.lat + (random.next() - 0.5) * spread).toFixed(6));
    const longitude = Number((town.lon + (random.next() - 0.5) * spread * 1.5).toFixed(6));
    const street = `${random.pick(STREETS[town.country]!)} ${random.int(1, 2400)}${random.chance(0.2) ? `/${random.int(1, 40)}` : ""}`;
    let type: PointType;
    let network: string;
    let name: string;
    let maxWeightKg: number | null;
    let maxSizeCm: SizeCm | null = null;
    let cod: boolean;
    const roll = random.next();
    if (courier === "packeta") {
      if (roll < 0.35) {
        type = "LOCKER";
        network = roll < 0.3 ? "zbox" : "alzabox";
        name = `${network === "zbox" ? "Z-BOX" : "AlzaBox"} ${town.name}, ${street}`;
        maxWeightKg = 15;
        cod = network === "zbox" ? random.chance(0.9) : false;
      } else {
        type = "POINT";
        network = "packeta";
        name = `${town.name}, ${street} (${random.pick(HOSTS)})`;
        maxWeightKg = random.pick([5, 10, 15, 20, 30]);
        cod = true;
      }
    } else {
      if (roll < 0.3) {
        type = "LOCKER";
        network = roll < 0.22 ? "parcelbox" : "alzabox";
        name = `${network === "parcelbox" ? "PPL Parcelbox" : "AlzaBox"} ${town.name} ${street}`;
        maxWeightKg = 10;
        maxSizeCm = { length: 50, width: 40, height: 38 };
        cod = network === "parcelbox" && random.chance(0.8);
      } else {
        type = "POINT";
        network = "parcelshop";
        name = `${random.pick(HOSTS)} ${town.name}`;
        maxWeightKg = null;
        cod = random.chance(0.85);
      }
    }
    const closed = random.chance(0.03);
    yield {
      id: courier === "packeta" ? String(10_000 + i) : `${town.country}${String(100_000 + i).padStart(6, "0")}`,
      courier,
      type,
      network,
      name,
      street,
      city: town.name,
      zip: zipNear(random, town),
      country: town.country,
      latitude,
      longitude,
      openingHours: openingHours(random, type),
      cod,
      cardPayment: type === "LOCKER" ? true : random.chance(0.7),
      maxWeightKg,
      maxSizeCm,
      open: !closed,
      closedSince: closed ? closedSince : null,
    };
  }
}
