/**
 * The iko-plus policy pack: `pulumi preview --policy-pack policy` (or `up`). Every rule but
 * `clusters-protected` (advisory) is mandatory: a violation fails the preview or update. The rules are pure functions in
 * policy/rules/ (tested in test/unit/policy-*.test.ts), wired to @pulumi/policy in policies.ts;
 * this file only makes them a pack. See docs/policy.md.
 */
import { PolicyPack } from "@pulumi/policy";
import { ikoPlusPolicies } from "./policies";
import { keepSecretMarkers } from "./sdk";

keepSecretMarkers();

new PolicyPack("iko-plus", { enforcementLevel: "mandatory", policies: ikoPlusPolicies() });
