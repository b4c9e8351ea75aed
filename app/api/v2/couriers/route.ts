import { json } from "@/server/http/handler";
import { withApiKey } from "@/server/http/with-api-key";
import { listCouriers } from "@/server/services/configurations/list-couriers";

export const GET = withApiKey("configurations:read", async () => json(listCouriers()));
