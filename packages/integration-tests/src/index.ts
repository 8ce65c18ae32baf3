/*
 * The kit of the end-to-end suites, for this package's tests and for those of other packages
 * (the command line's, the examples'), which import it by the package's name: never a path
 * into another package's test folder.
 */
export { startAlternatingProxy, type AlternatingProxy } from "./alternating-proxy.ts";
export { apiClient } from "./api-client.ts";
export { openEventStream, parseFrames, type EventStreamClient, type StreamFrame } from "./event-stream.ts";
export { getFrom, startForwardingProxy, type TimedAnswer } from "./forwarding-proxy.ts";
export { appWithEveryRoute } from "./full-app.ts";
export { bundleSeed, startLiveServer, withTwin, type LiveServer } from "./live-server.ts";
export {
  answerProblems, answeredMethod, checkAnswer, createAnswerChecker, documentedFetch, expectDocumentedAnswer, expectDocumentedRawAnswer,
  expectDocumentedResponse, type AnswerCheck, type ReceivedAnswer,
} from "./openapi-answers.ts";
export { E2E_STORE, openSharedStores, type SharedStores } from "./test-stores.ts";
