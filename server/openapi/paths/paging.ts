import { pagingQuery } from "@/server/services/pagination";

/**
 * `page` and `pageSize` of the service's paging schema. On the wire they are digit strings; the document
 * shows them as the integers they mean.
 */
export const pagingParams = {
  page: pagingQuery.shape.page.meta({
    type: "integer",
    minimum: 1,
    default: 1,
    param: { description: "The page to return, 1 or more (default 1). 0 or a non-number → 400." },
  }),
  pageSize: pagingQuery.shape.pageSize.meta({
    type: "integer",
    minimum: 1,
    maximum: 50,
    default: 20,
    param: { description: "Items per page, 1 to 50 (default 20). Out of range → 400." },
  }),
};
