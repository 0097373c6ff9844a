/**
 * The ResourceInterpreterCustomization that teaches Karmada what an IrisCluster's health, status
 * and dependencies are. Without it Karmada counts every IrisCluster as healthy (so application
 * failover never fires), writes no status back to the template, and propagates no dependency.
 *
 * IKO's status shape is not public: these scripts read `status.phase` (what `kubectl get
 * iriscluster` prints as STATUS, e.g. "Running") and, when present, `status.conditions`.
 */

/** Phases that mean the IrisCluster is broken (case-insensitive). */
export const UNHEALTHY_PHASES = ["failed", "error", "degraded", "unhealthy"];

/** healthInterpretation: unhealthy on a failed phase or a Ready=False condition. */
export const HEALTH_LUA = `function InterpretHealth(observedObj)
  if observedObj.status == nil then
    return true
  end
  local phase = observedObj.status.phase
  if phase ~= nil then
    local p = string.lower(phase)
    if ${UNHEALTHY_PHASES.map((p) => `p == '${p}'`).join(" or ")} then
      return false
    end
  end
  if observedObj.status.conditions ~= nil then
    for _, c in ipairs(observedObj.status.conditions) do
      if c.type == 'Ready' and c.status == 'False' then
        return false
      end
    end
  end
  return true
end`;

/** statusReflection: the member's whole status goes into the binding. */
export const REFLECT_LUA = `function ReflectStatus(observedObj)
  if observedObj.status == nil then
    return {}
  end
  return observedObj.status
end`;

/**
 * statusAggregation: the template's status gets the worst phase across members (Failed beats
 * anything, then Pending/unknown, then Running) and one entry per member.
 */
export const AGGREGATE_LUA = `function AggregateStatus(desiredObj, statusItems)
  if statusItems == nil then
    return desiredObj
  end
  local rank = { running = 0, pending = 1, creating = 1, unknown = 2, degraded = 3, unhealthy = 3, error = 4, failed = 4 }
  local worst = nil
  local worstRank = -1
  local members = {}
  for i = 1, #statusItems do
    local item = statusItems[i]
    local phase = 'Unknown'
    if item.status ~= nil and item.status.phase ~= nil then
      phase = item.status.phase
    end
    local r = rank[string.lower(phase)]
    if r == nil then
      r = 2
    end
    if r > worstRank then
      worstRank = r
      worst = phase
    end
    members[i] = { clusterName = item.clusterName, phase = phase }
  end
  if desiredObj.status == nil then
    desiredObj.status = {}
  end
  desiredObj.status.phase = worst
  desiredObj.status.members = members
  return desiredObj
end`;

/** dependencyInterpretation: the Secrets and ConfigMaps an IrisCluster references. */
export const DEPENDENCIES_LUA = `function GetDependencies(desiredObj)
  local deps = {}
  local ns = desiredObj.metadata.namespace
  local seen = {}
  local function add(kind, name)
    if name == nil or name == '' then
      return
    end
    local key = kind .. '/' .. name
    if seen[key] then
      return
    end
    seen[key] = true
    deps[#deps + 1] = { apiVersion = 'v1', kind = kind, namespace = ns, name = name }
  end
  local spec = desiredObj.spec
  if spec == nil then
    return deps
  end
  if spec.licenseKeySecret ~= nil then
    add('Secret', spec.licenseKeySecret.name)
  end
  if spec.configSource ~= nil then
    add('ConfigMap', spec.configSource.name)
  end
  if spec.imagePullSecrets ~= nil then
    for _, s in ipairs(spec.imagePullSecrets) do
      add('Secret', s.name)
    end
  end
  if spec.tls ~= nil then
    for _, t in pairs(spec.tls) do
      if type(t) == 'table' and t.secret ~= nil then
        add('Secret', t.secret.secretName)
      end
    end
  end
  return deps
end`;

/** The customization object for IrisClusters. */
export function irisClusterInterpreter(name = "iriscluster-interpreter"): Record<string, unknown> {
  return {
    apiVersion: "config.karmada.io/v1alpha1",
    kind: "ResourceInterpreterCustomization",
    metadata: { name },
    spec: {
      target: { apiVersion: "intersystems.com/v1alpha1", kind: "IrisCluster" },
      customizations: {
        healthInterpretation: { luaScript: HEALTH_LUA },
        statusReflection: { luaScript: REFLECT_LUA },
        statusAggregation: { luaScript: AGGREGATE_LUA },
        dependencyInterpretation: { luaScript: DEPENDENCIES_LUA },
      },
    },
  };
}
