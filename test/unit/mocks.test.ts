// Unit (mocks): the shared mocks' waits fail with the cause when a registration fails, instead of
// hanging until the test's timeout (which also made each such Stryker mutant cost a timeout).
import * as assert from "assert";
import * as pulumi from "@pulumi/pulumi";
import { installMocks, resolve, settle } from "./mocks";

class Thing extends pulumi.CustomResource {
  constructor(name: string, value: pulumi.Input<string>) {
    super("test:mocks:Thing", name, { value });
  }
}

describe("unit (mocks): the shared mocks' waits", () => {
  before(() => installMocks());

  it("settle rejects with the cause when a resource's input threw, well before a test's timeout", async () => {
    const bad = pulumi.output("x").apply((): string => {
      throw new Error("the token is empty");
    });
    const r = new Thing("bad-input", bad);
    const started = Date.now();
    await assert.rejects(settle(r), /a resource failed to register: .*the token is empty/);
    assert.ok(Date.now() - started < 3000, `rejected after ${Date.now() - started} ms`);
  });

  it("resolve rejects with the cause when the output itself failed", async () => {
    const bad = pulumi.output("x").apply((): string => {
      throw new Error("no server URL");
    });
    await assert.rejects(resolve(bad), /no server URL/);
  });

  it("settle and resolve still resolve when every registration succeeds", async () => {
    const r = new Thing("good-input", "v");
    await settle(r);
    assert.deepStrictEqual(await resolve(pulumi.secret("s")), { value: "s", secret: true });
  });
});
