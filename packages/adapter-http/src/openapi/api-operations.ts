import { elementOperations } from "../routes/elements.ts";
import { enumerateOperations } from "../routes/enumerates.ts";
import { dashboardOperations } from "../routes/dashboards.ts";
import { lifecycleOperations } from "../routes/lifecycle.ts";
import { revisionOperations } from "../routes/revisions.ts";
import { trashOperations } from "../routes/trash.ts";
import { apiReferenceOperations } from "../routes/api-reference.ts";
import { imageOperations } from "../routes/images.ts";
import { fullsearchOperations } from "../routes/fullsearch.ts";
import { authenticationOperations } from "../routes/authentication.ts";
import { healthOperations } from "../health.ts";
import type { ApiOperation } from "./operation.ts";

/** Every operation the app serves, in the order of the reference page. Add yours here (see index.ts). */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...elementOperations,
  ...revisionOperations,
  ...trashOperations,
  ...lifecycleOperations,
  ...enumerateOperations,
  ...dashboardOperations,
  ...imageOperations,
  ...fullsearchOperations,
  ...authenticationOperations,
  ...apiReferenceOperations,
  ...healthOperations,
];
