/** OpenStreetMap's standard tiles: the default of `MAP_TILE_URL`, and of a picker's map given none. */
export const DEFAULT_MAP_TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
