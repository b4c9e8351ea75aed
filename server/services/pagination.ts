import { z } from "zod";

export const MAX_PAGE_SIZE = 50;

const positiveInt = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number`)
    .transform(Number);

/** `page` ≥ 1 (default 1) and `pageSize` 1..50 (default 20), from query strings. */
export const pagingQuery = z.object({
  page: positiveInt("page").pipe(z.number().min(1, "page must be at least 1")).default(1),
  pageSize: positiveInt("pageSize")
    .pipe(
      z.number().min(1, "pageSize must be between 1 and 50").max(MAX_PAGE_SIZE, "pageSize must be between 1 and 50"),
    )
    .default(20),
});

export type Paging = { page: number; pageSize: number };

export const pagingInput = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});

export type Page<T> = {
  page: number;
  pageSize: number;
  totalPages: number;
  /** Whether a next (previous) page exists: booleans, as the original interface defines them. */
  nextPage: boolean;
  previousPage: boolean;
  itemsCount: number;
  items: T[];
};

export function envelope<T>(items: T[], total: number, { page, pageSize }: Paging): Page<T> {
  const totalPages = Math.ceil(total / pageSize);
  return {
    page,
    pageSize,
    totalPages,
    nextPage: page < totalPages,
    previousPage: page > 1,
    itemsCount: total,
    items,
  };
}

export const offsetOf = ({ page, pageSize }: Paging) => (page - 1) * pageSize;
