import { createLifecycleEngine } from "../src/lifecycle/lifecycle-engine.ts";
import { workflowEngineContract } from "../src/testing/index.ts";

workflowEngineContract("the core's lifecycle engine", ({ clock, hooks }) => createLifecycleEngine({ clock, hooks }));
