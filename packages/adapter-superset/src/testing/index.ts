/** `@lineage/adapter-superset/testing`: a stand-in Apache Superset on loopback, for tests of the adapter and of what uses it. */
export { fakeDashboard, startFakeSuperset, type FakeDashboard, type FakeKnobs, type FakeSuperset } from "./fake-superset.ts";
