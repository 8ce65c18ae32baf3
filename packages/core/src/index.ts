/*
 * @lineage/core: the platform's façades (createPlatform and one object per area), the models they
 * take and answer, the ports adapters implement, and what adapters share to implement them. The
 * in-memory fakes and contract suites are in @lineage/core/testing. docs/architecture.md says
 * where each concept lives.
 */

// The platform and its areas.
export * from "./platform.ts";
export type { ElementsFacade, DeleteOptions } from "./elements/elements-facade.ts";
export type { TrashFacade } from "./elements/trash-facade.ts";
export type { RevisionsFacade } from "./elements/revisions-facade.ts";
export type { FoldersFacade } from "./queries/folders-facade.ts";
export type { LocksFacade } from "./elements/locks-facade.ts";
export type { CurrentAccount } from "./accounts/current-account.ts";
export type { LockInfo, LockOptions } from "./elements/element-locks.ts";
export { lockedProperty, type ElementLock, type LockKind } from "./elements/element-lock.ts";
export type { ElementWrite, AnswerOptions } from "./elements/element-write.ts";
export type {
  CreateValuesOf, ListOf, ReadingOf, StructureType, TypedAttributes, TypedAttributeValue, TypedDocumentView, TypedElementReading, UpdateValuesOf,
} from "./elements/typed-element.ts";
export type { StructuresFacade } from "./structures/structures-facade.ts";
export type { EnumeratesFacade } from "./enumerates/enumerates-facade.ts";
export type { FilesFacade } from "./files/files-facade.ts";
export type { ImagesFacade } from "./images/images-facade.ts";
export type { DashboardsFacade } from "./dashboards/dashboards-facade.ts";
export type { AccountsFacade } from "./accounts/accounts-facade.ts";
export type { TokensFacade, TokenOptions } from "./auth/tokens-facade.ts";
export type { AuthFacade } from "./auth/auth-facade.ts";
export type { LifecycleFacade } from "./lifecycle/lifecycle-facade.ts";
export type { FullSearchFacade } from "./search/fullsearch-facade.ts";
export type { BundlesFacade } from "./bundle/bundles-facade.ts";
export type { EventsFacade } from "./events/events-facade.ts";
export type { WebhooksFacade } from "./webhooks/webhooks-facade.ts";

// What the façades take and answer.
export type { ElementReading, ConsultOptions, ListOptions, ElementList, RevisionOptions, HistoryOptions } from "./elements/read-elements.ts";
export type { CreateElementInput, UpdateElementInput, ReviseInput, ApiCreateInput, WriteOptions, WriteResult } from "./elements/write-elements.ts";
export type { StructureReading } from "./structures/read-structure.ts";
export type { EnumerateQuery, EnumerateTarget } from "./enumerates/read-enumerate.ts";
export { parseEnumerateQuery } from "./enumerates/read-enumerate.ts";
export { EnumerateQuerySchema } from "./enumerates/enumerate-query.schema.ts";
export type { TokenSummary } from "./auth/manage-tokens.ts";
export type { TokenRequest } from "./accounts/administration.ts";
export type { AccountEdit, Memberships } from "./accounts/administer-accounts.ts";
export type { AccountValues } from "./accounts/manage-accounts.ts";
export type { LifecycleOptions, StateListOptions, StateChangeInput } from "./lifecycle/lifecycle-use-cases.ts";
export { StateChangeBodySchema, readStateChangeBody } from "./lifecycle/transition-parameters.ts";
export { createTransitionHooks, type TransitionHook, type TransitionHookContext, type TransitionHooks } from "./lifecycle/transition-hooks.ts";
export type { FullSearchQuery } from "./search/search-elements.ts";
export type { SearchEngine } from "./search/search-engine.ts";
export type { IndexPacing } from "./search/index-pacing.ts";
export type { SearchCallable, SearchCallables } from "./search/element-text.ts";
export type { ImportBundleOptions } from "./bundle/import-bundle.ts";
export type { OverwrittenElement } from "./bundle/import-elements.ts";
export type { ImportReport } from "./bundle/import-report.ts";
export { formatImportReport, overwriteWarning } from "./bundle/import-report.ts";
export type { BundleProblem, BundleCheck } from "./bundle/problems/bundle-check.ts";
export { bundleError } from "./bundle/problems/bundle-check.ts";
export type { BundlePart, BundleSource } from "./bundle/bundle-source.ts";
export type { ImportProgress } from "./bundle/import-progress.ts";
export type { Bundle } from "./bundle/bundle.schema.ts";
export type { EventPage } from "./events/read-events.ts";
export type { EventWait } from "./events/event-wakeups.ts";
export { DEFAULT_EVENT_SLICE, MAX_EVENT_SLICE, parseEventQuery, type EventQuery, type EventQueryInput } from "./events/event-query.ts";
export * from "./events/event-query.schema.ts";
export { systemPrincipal } from "./bundle/system-principal.ts";
export type { DashboardView } from "./dashboards/dashboard-view.ts";
export type { AuthenticationService, AuthenticationServiceOptions, ThrottleEvent } from "./auth/authentication-service.ts";
export type { ThrottleOptions, LoginThrottle } from "./auth/login-throttle.ts";
export { createMemoryThrottleStore } from "./auth/memory-throttle-store.ts";

// Errors: every code of the spec, with its status, in one table.
export { ERROR_CODES, errorCodeDefinition, type ErrorCode } from "./errors/error-codes.ts";
export { LineageError, isLineageError } from "./errors/lineage-error.ts";

// Models.
export * from "./i18n/label.ts";
export type { FieldType, ResolvedField, SmartField, Visibility } from "./structures/smart-field.ts";
export type { SmartStructure, StructureDefinition } from "./structures/smart-structure.ts";
export { flattenFields } from "./structures/smart-structure.ts";
export { describeStructure, type FieldDescription } from "./structures/structure-description.ts";
export { FIELD_SET_TYPES, FIRST_IN_SET, type FieldSetDefinition, type FieldSetType, type ResolvedFieldSet } from "./structures/field-set.ts";
export { structureLayout, type StructureLayout } from "./structures/structure-layout.ts";
export { structureValueTypes, type FieldValueType, type ValueItemType } from "./structures/structure-value-types.ts";
export type { Enumerate, EnumItem } from "./enumerates/enumerate.ts";
export type { Lifecycle, LifecycleState, LifecycleTransition, TransitionParameter } from "./lifecycle/lifecycle.ts";
export type { Permission, Profile } from "./access/profile.ts";
export type { FieldAccess, FieldAccessLayer } from "./access/field-access.ts";
export { requireAccess } from "./access/authorization-guard.ts";
export { ADMIN_ROLE, HTTP_RIGHTS, type Account, type AddUserInput, type Group, type HttpRight, type Role } from "./accounts/account.ts";
export type { Principal } from "./accounts/principal.ts";
export type { ElementRevision, ElementValues, FieldValue, LineageStatus, NewRevision } from "./elements/smart-element.ts";
export type { HistoryEntry, HistoryLevel } from "./elements/history-entry.ts";
export * from "./events/element-event.ts";
export * from "./webhooks/webhook.ts";
export { WebhookInputSchema, MAX_WEBHOOK_URL_LENGTH, type WebhookInput } from "./webhooks/webhook-input.schema.ts";
export type { AttemptSummary, CreatedWebhook, DeliveryDetail, DeliverySummary, WebhookSummary } from "./webhooks/manage-webhooks.ts";
export { JITTER, RETRY_DELAYS_MS, RETRY_WINDOW_MS, retryDelay, settleAttempt, type AttemptOutcome } from "./webhooks/delivery-schedule.ts";
export { DEFAULT_LEASE_MS, type QueuedDeliveries } from "./webhooks/deliver-webhooks.ts";
export { webhookMatches } from "./webhooks/webhook-match.ts";
export type { UploadedFile } from "./elements/uploaded-file.ts";
export type { DocumentView } from "./elements/element-view.ts";
export type { AttributeValue, RenderedValue } from "./values/display-value.ts";
export { displayDate } from "./values/display-value.ts";
export { formatFileValue } from "./values/file-value.ts";
export { MIME_ICON_FILES, MIME_ICON_NAMES } from "./values/mime-icon.ts";
export { ACCOUNT_ICON, DEFAULT_ICON } from "./elements/element-icon.ts";
export { parseFieldsSelection } from "./elements/fields-selection.ts";
export { etagMatches } from "./elements/etag.ts";
export { renderElementXml, XSI_NAMESPACE, type ElementXmlOptions } from "./elements/element-xml.ts";
export { renderElementCsv } from "./elements/element-csv.ts";
export { elementsOfXml, EMBEDDED_FILES, type XmlElements, type XmlNode } from "./bundle/xml-elements.ts";
export { ElementQuerySchema, ListQuerySchema } from "./elements/list-query.schema.ts";
export * from "./elements/restore-body.schema.ts";
export { MAX_SLICE, parseOffset, parseOrderBy, parseSlice } from "./elements/list-parameters.ts";
export {
  FILTER_OPERATORS, FILTER_PROPERTIES, foldCase, htmlText,
  type ElementFilter, type FieldCondition, type FilterComparison, type FilterCondition, type FilterGroup, type FilterNode, type FilterOperator,
  type FilterProperty, type FilterShape, type FilterValue, type PropertyCondition,
} from "./queries/element-filter.ts";
export { CountParameterSchema, FilteredListQuerySchema, FilterParameterSchema, FilterSchema, FILTER_LIMITS, type FilterInput, type FilterConditionInput, type FilterGroupInput } from "./queries/filter.schema.ts";
export { matchesFilter } from "./queries/filter-match.ts";
export { filterOperatorsOf, readFilterInput } from "./queries/parse-filter.ts";
export type { FilterOption } from "./queries/list-filter.ts";
export type { SearchesFacade, SavedSearchResults } from "./queries/searches-facade.ts";
export type { FolderContent, FolderMembership, MembershipOptions } from "./queries/folders.ts";
export {
  COLLECTIONS_PROFILE, FOLDER_STRUCTURE, REPORT_STRUCTURE, SEARCH_STRUCTURE, SEARCH_TRASH_ENUMERATE, SYSTEM_DEFINITIONS, SYSTEM_STRUCTURES,
} from "./queries/system-structures.ts";
export { decisiveOrder, MERGED_FIELD_STRUCTURES, resolvedOrderFields } from "./elements/list-order.ts";
export type { Session } from "./auth/session.ts";
export { newSessionSecret } from "./auth/session.ts";
export { secretHash, type AccessToken, type TokenExpiration } from "./auth/access-token.ts";
export { normaliseTokenRoutes, parseTokenRoute, routesAllow, type TokenRoute, type TokenRouteInput } from "./auth/token-route.ts";
export { compileRoutePattern } from "./auth/route-pattern.ts";
export { constantTimeEqual } from "./auth/constant-time.ts";
export { SEARCH_WEIGHTS, WEIGHT_BOOSTS, type SearchConfig, type SearchDomain, type SearchWeight } from "./search/search-domain.ts";
export { MAX_QUERY_LENGTH, parseSearchQuery, type QueryLiteral, type SearchQuery } from "./search/search-query.ts";
export { analyzerFor } from "./search/analyzer.ts";
export { fileStatusCounts } from "./search/file-status-counts.ts";
export type { DashboardEntry } from "./dashboards/dashboard-entry.ts";
export { extensionOf, formatOfExtension, mimeByContent, mimeOfFormat, type ImageFormat } from "./images/image-format.ts";
export { parseImageSize, planResize, type ResizePlan } from "./images/image-size.ts";
export { readImageHeader } from "./images/image-header.ts";
export { createImageVariants, type ImageAnswer, type ImageLimits, type ImageVariants } from "./images/image-variants.ts";
export * from "./images/content-disposition.ts";
export * from "./images/asset-path.ts";
export { createScryptPasswordHasher, scryptPasswordHasher } from "./accounts/scrypt-password-hasher.ts";
export { DEFAULT_SCRYPT_COST, parseScryptHash, type ScryptCost } from "./accounts/scrypt-hash.ts";
export type { Definitions } from "./scope/definitions.ts";
export type { RequestScope, ScopeNeeds } from "./scope/request-scope.ts";
export { checkIfMatch } from "./elements/if-match.ts";
export { turnVersion } from "./scope/turn-version.ts";

// Ports: what adapters implement.
export * from "./ports/account-repository.port.ts";
export * from "./ports/authenticator.port.ts";
export * from "./ports/catalog-repository.port.ts";
export * from "./ports/change-clock.port.ts";
export * from "./ports/clock.port.ts";
export * from "./ports/credential-provider.port.ts";
export * from "./ports/dashboard-catalog.port.ts";
export * from "./ports/dashboard-server.port.ts";
export * from "./ports/document-text.port.ts";
export * from "./ports/element-repository.port.ts";
export * from "./ports/event-log.port.ts";
export * from "./ports/folder-repository.port.ts";
export * from "./ports/lock-repository.port.ts";
export * from "./ports/image-processor.port.ts";
export * from "./ports/image-store.port.ts";
export * from "./ports/password-hasher.port.ts";
export * from "./ports/search-index.port.ts";
export * from "./ports/search-repository.port.ts";
export * from "./ports/session-repository.port.ts";
export * from "./ports/store.port.ts";
export * from "./ports/throttle-store.port.ts";
export * from "./ports/token-repository.port.ts";
export * from "./ports/vault.port.ts";
export * from "./ports/webhook-destinations.port.ts";
export * from "./ports/webhook-repository.port.ts";
export * from "./ports/workflow-engine.port.ts";

// What store adapters share to implement the Store port.
export * from "./storage/outside-transactions.ts";
export * from "./storage/deadline-check.ts";
export * from "./storage/serial-queue.ts";
export * from "./storage/named-definitions.ts";
