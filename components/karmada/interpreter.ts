/**
 * The ResourceInterpreterCustomization that teaches Karmada what an IrisCluster's health, status
 * and dependencies are. Without it Karmada counts every IrisCluster as healthy (so application
 * failover never fires), writes no status back to the template, and propagates no dependency.
 *
 * IKO's status shape is not public: these scripts read `status.phase` (what `kubectl get
 * iriscluster` prints as STATUS, e.g. "Running") and, when present, `status.conditions`.
 */
import { HEALTHY_PHASES, UNHEALTHY_PHASES } from "../iris/health";
import { ResourceInterpreterCustomization } from "./types";

export { HEALTHY_PHASES, UNHEALTHY_PHASES };

const luaSet = (name: string, values: string[]) =>
  `local ${name} = { ${values.map((v) => `['${v}'] = true`).join(", ")} }`;

/**
 * healthInterpretation: healthy only when the operator says so. That is a `Ready` condition
 * with status "True", or (without a Ready condition) a running phase; and in both cases no
 * failed phase and no condition with status "False". Anything else (no status, `status: {}`,
 * Pending, Unknown, Ready=Unknown, a phase that is not a string) is unhealthy: a cluster no
 * operator reconciles must not count as healthy, and the policy's failover toleration absorbs
 * the time before the first reconcile. Fields of unexpected types are judged, never a Lua error.
 */
export const HEALTH_LUA = `function InterpretHealth(observedObj)
  ${luaSet("failedPhases", UNHEALTHY_PHASES)}
  ${luaSet("runningPhases", HEALTHY_PHASES)}
  local status = observedObj.status
  if type(status) ~= 'table' then
    return false
  end
  local running = false
  if type(status.phase) == 'string' then
    local p = string.lower(status.phase)
    if failedPhases[p] then
      return false
    end
    running = runningPhases[p] == true
  end
  local ready = nil
  if type(status.conditions) == 'table' then
    for _, c in ipairs(status.conditions) do
      if type(c) == 'table' then
        if c.status == 'False' then
          return false
        end
        if c.type == 'Ready' then
          ready = c.status == 'True'
        end
      end
    end
  end
  if ready ~= nil then
    return ready
  end
  return running
end`;

/** statusReflection: the member's whole status goes into the binding. */
export const REFLECT_LUA = `function ReflectStatus(observedObj)
  if type(observedObj.status) ~= 'table' then
    return {}
  end
  return observedObj.status
end`;

/**
 * statusAggregation: the template's status is replaced (never merged with what it carried) by
 * the worst phase across members (Failed beats anything, then Pending/unknown, then Running),
 * one entry per member, and each condition type once with its worst status across members
 * (False, then Unknown, then True), the reason of the first worst member and a message naming
 * every member with that status. No member status: no status.
 */
export const AGGREGATE_LUA = `function AggregateStatus(desiredObj, statusItems)
  if statusItems == nil or #statusItems == 0 then
    desiredObj.status = nil
    return desiredObj
  end
  local rank = { running = 0, pending = 1, creating = 1, unknown = 2, degraded = 3, unhealthy = 3, error = 4, failed = 4 }
  local condRank = { True = 0, Unknown = 1, False = 2 }
  local worst = nil
  local worstRank = -1
  local members = {}
  local conds = {}
  local condOrder = {}
  for i = 1, #statusItems do
    local item = statusItems[i]
    local status = item.status
    if type(status) ~= 'table' then
      status = {}
    end
    local phase = 'Unknown'
    if type(status.phase) == 'string' and status.phase ~= '' then
      phase = status.phase
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
    if type(status.conditions) == 'table' then
      for _, c in ipairs(status.conditions) do
        if type(c) == 'table' and type(c.type) == 'string' then
          local s = c.status
          if condRank[s] == nil then
            s = 'Unknown'
          end
          local text = tostring(item.clusterName)
          if type(c.message) == 'string' and c.message ~= '' then
            text = text .. ': ' .. c.message
          elseif type(c.reason) == 'string' and c.reason ~= '' then
            text = text .. ': ' .. c.reason
          end
          local agg = conds[c.type]
          if agg == nil or condRank[s] > condRank[agg.status] then
            agg = { type = c.type, status = s, texts = { text } }
            if type(c.reason) == 'string' and c.reason ~= '' then
              agg.reason = c.reason
            end
            if type(c.lastTransitionTime) == 'string' then
              agg.lastTransitionTime = c.lastTransitionTime
            end
            if conds[c.type] == nil then
              condOrder[#condOrder + 1] = c.type
            end
            conds[c.type] = agg
          elseif s == agg.status then
            agg.texts[#agg.texts + 1] = text
          end
        end
      end
    end
  end
  local status = { phase = worst, members = members }
  if #condOrder > 0 then
    local conditions = {}
    for i, t in ipairs(condOrder) do
      local agg = conds[t]
      local c = { type = agg.type, status = agg.status, message = table.concat(agg.texts, '; ') }
      if agg.reason ~= nil then
        c.reason = agg.reason
      end
      if agg.lastTransitionTime ~= nil then
        c.lastTransitionTime = agg.lastTransitionTime
      end
      conditions[i] = c
    end
    status.conditions = conditions
  end
  desiredObj.status = status
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
export function irisClusterInterpreter(name = "iriscluster-interpreter"): ResourceInterpreterCustomization {
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
