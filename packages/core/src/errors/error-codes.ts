/**
 * Every error the platform raises, by code: HTTP status, reason phrase and the
 * sprintf-style text of the original platform (original-notes.md 2.2).
 * The HTTP adapter renders the envelope from this table and nothing else.
 */
export interface ErrorCodeDefinition {
  readonly status: number;
  readonly reason: string;
  readonly text: string;
}

const codes = {
  API0004: { status: 404, reason: "Route not found", text: 'The URL %s is not compatible with the ressources of the API' },
  API0005: { status: 400, reason: "Bad Request", text: 'Unable to return the type %s' },
  API0006: { status: 400, reason: "Bad Request", text: 'Unable to return the type from http headers %s' },
  API0008: { status: 400, reason: "Bad Request", text: 'Override http method "%s" not allowed for "%s"' },
  API0009: { status: 400, reason: "Bad Request", text: 'Invalid request body: %s' },
  API0010: { status: 413, reason: "Payload Too Large", text: 'Request body exceeds the limit of %s bytes' },
  API0011: { status: 400, reason: "Bad Request", text: 'Invalid URL encoding in "%s"' },
  API0012: { status: 400, reason: "Bad Request", text: 'Unsupported content type "%s"' },
  AUTH0401: { status: 401, reason: "Unauthorized", text: 'User must be authenticated' },
  AUTH0402: { status: 401, reason: "Unauthorized", text: 'Invalid authorization method "%s"' },
  CRUD0103: { status: 501, reason: "Not Implemented", text: 'Method "%s" is not available on "%s"' },
  CRUD0105: { status: 403, reason: "Forbidden", text: "The user don't have the permission %s" },
  CRUD0200: { status: 404, reason: "Document not found", text: 'Document "%s" not found' },
  CRUD0201: { status: 403, reason: "Forbidden", text: 'Document "%s" access deny : %s' },
  CRUD0202: { status: 400, reason: "Bad Request", text: 'Document property fields "%s" not known' },
  CRUD0213: { status: 403, reason: "Forbidden", text: 'Update family "%s" is not possible' },
  CRUD0218: { status: 400, reason: "Bad Request", text: 'Document attribute "%s" not known' },
  CRUD0219: { status: 404, reason: "Document deleted", text: 'Document "%s" deleted' },
  CRUD0220: { status: 404, reason: "Document is not a document of the family", text: 'Document "%s" is not a document of the family "%s"' },
  CRUD0221: { status: 404, reason: "Revision not found", text: 'The revision "%s" of document "%s" is not found' },
  CRUD0227: { status: 404, reason: "No workflow detected", text: 'No associated workflow for document "%s"' },
  CRUD0228: { status: 404, reason: "State not found", text: 'State "%s" is not available for  workflow "%s" (%d)' },
  CRUD0229: { status: 404, reason: "Transition not found", text: 'transition "%s" is not available for  workflow "%s" (%d)' },
  CRUD0235: { status: 404, reason: "Invalid transition", text: 'Destination state is not defined for workflow "%s" (%d)' },
  CRUD0236: { status: 400, reason: "Bad Request", text: 'The restoration must be initialized with {"document" : { "properties" : { "status" : "alive" } } }' },
  CRUD0237: { status: 400, reason: "Bad Request", text: 'Document "%s" is not deleted' },
  CRUD0400: { status: 404, reason: "Attribute not found", text: 'Enum "%s" not exists in family "%s"' },
  CRUD0401: { status: 403, reason: "Attribute is not an enum", text: 'Attribute "%s" is not an enum (type "%s") in family "%s"' },
  CRUD0402: { status: 400, reason: "Bad Request", text: 'Filter operateur "%s" not available. Availables are "%s"' },
  CRUD0403: { status: 400, reason: "Bad Request", text: 'sortBy operateur "%s" not available. Availables are "%s"' },
  CRUD0501: { status: 400, reason: "Bad Request", text: 'The sort direction must be desc or asc (not "%s")' },
  CRUD0502: { status: 400, reason: "Bad Request", text: 'The required field must be an attribute with value or a property (not "%s")' },
  CRUD0506: { status: 400, reason: "Bad Request", text: 'The order must be an attribute or a property (not "%s")' },
  CRUD0507: { status: 400, reason: "Bad Request", text: 'The required field must not be a structured attribute : not "%s" (%s) - type : "%s"' },
  ROUTES0100: { status: 404, reason: "Document not found", text: 'Document "%s" not found' },
  ROUTES0101: { status: 403, reason: "Forbidden", text: 'Document "%s" access deny : %s' },
  ROUTES0102: { status: 404, reason: "Document deleted", text: 'Document "%s" deleted' },
  ROUTES0103: { status: 400, reason: "Bad Request", text: 'Document fields "%s" not known' },
  ROUTES0104: { status: 404, reason: "Document is not a document of the family", text: 'Document "%s" is not a document of the family "%s"' },
  ROUTES0105: { status: 404, reason: "Family not found", text: 'Structure "%s" not found' },
  ROUTES0106: { status: 400, reason: "Bad Request", text: 'Record fail. Json object not contains attributes // example : {"document":{"attributes":{"attributeId" : {"value" : "newValue"}}}} : %s' },
  ROUTES0107: { status: 500, reason: "Unable to modify the document", text: 'Update document "%s" fail - attribute "%s": "%s"' },
  ROUTES0108: { status: 400, reason: "Bad Request", text: 'Record fail. Attribute "%s" has not "value" property in json' },
  ROUTES0109: { status: 500, reason: "Unable to modify the document", text: 'Update document "%s" fail  : "%s"' },
  ROUTES0110: { status: 403, reason: "Forbidden", text: 'Delete deny for document "%s" fail : "%s" ' },
  ROUTES0112: { status: 404, reason: "Document not in the trash", text: 'Document "%s" is not in the trash' },
  ROUTES0113: { status: 403, reason: "Forbidden", text: 'Cannot update deleted document "%s"' },
  ROUTES0127: { status: 400, reason: "Bad Request", text: 'Smart field "%s" is an array : its values cannot be set' },
  ROUTES0131: { status: 403, reason: "Access Forbidden", text: 'Route "%s" access deny : need "%s" privilege' },
  ROUTES0139: { status: 400, reason: "Bad Request", text: 'Incorrect Slice "%s" in search' },
  ROUTES0140: { status: 400, reason: "Bad Request", text: 'Incorrect Offset "%s" in search' },
  VALUE0001: { status: 400, reason: "Bad Request", text: 'Smart field "%s": %s' },
  VALUE0002: { status: 400, reason: "Bad Request", text: 'Smart field "%s" is needed' },
  BUNDLE0001: { status: 400, reason: "Bad Request", text: 'Invalid bundle: %s' },
  ACCOUNT0001: { status: 400, reason: "Bad Request", text: 'Account "%s" already exists' },
  ACCOUNT0002: { status: 400, reason: "Bad Request", text: 'Invalid account: %s' },
  WFL0300: { status: 403, reason: "Forbidden", text: 'Cannot use transition "%s"' },
  WFL0310: { status: 400, reason: "Bad Request", text: 'Transition parameter "%s": %s' },
  WFL0311: { status: 400, reason: "Bad Request", text: 'Transition parameter "%s" is needed' },
  WFL0312: { status: 400, reason: "Bad Request", text: 'Transition "%s" has no parameter "%s"' },
  WFL0409: { status: 409, reason: "Conflict", text: 'Element "%s" changed meanwhile, reload and retry' },
  ENUM0404: { status: 404, reason: "Enumerate not found", text: 'Enumerate "%s" not found' },
} as const satisfies Record<string, ErrorCodeDefinition>;

export type ErrorCode = keyof typeof codes;

/** The definition of an error code (status, reason, text format). */
export function errorCodeDefinition(code: ErrorCode): ErrorCodeDefinition {
  return codes[code];
}
