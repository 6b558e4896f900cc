/**
 * "Where the time goes": S1 and S2 on Workforce and on the same-work baseline (B4/B5), each under
 * the CPU profiler (bench/lib/cpu-profile.ts), as a table of the server's JS time a request by
 * layer, side by side. What Workforce spends beyond the baseline, layer by layer, is what stands
 * between S1/S2 and B4/B5.
 */
import { profileServer, type ProfileOptions, type ProfileResult } from '../lib/cpu-profile'

export interface LayerProfiles {
  s1: { service: ProfileResult; baseline: ProfileResult }
  s2: { service: ProfileResult; baseline: ProfileResult }
}

type Common = Omit<ProfileOptions, 'server' | 'load' | 'rounds'>

export async function layerProfiles(options: Common & { s1Rounds: number; s2Seconds: number }): Promise<LayerProfiles> {
  const run = (server: 'service' | 'baseline', load: 's1' | 's2') =>
    profileServer({ ...options, server, load, rounds: load === 's1' ? options.s1Rounds : options.s2Seconds, top: 12 })
  return {
    s1: { service: await run('service', 's1'), baseline: await run('baseline', 's1') },
    s2: { service: await run('service', 's2'), baseline: await run('baseline', 's2') },
  }
}

const us = (value: number) => `${value.toFixed(0)} µs`

/** Each layer's time a request on Workforce and on the baseline, most extra on Workforce first. */
function differences({ service, baseline }: { service: ProfileResult; baseline: ProfileResult }) {
  const layers = [...new Set([...service.layers, ...baseline.layers].map((layer) => layer.layer))]
  const timeOf = (result: ProfileResult, layer: string) => result.layers.find((entry) => entry.layer === layer)?.us ?? 0
  return layers
    .map((layer) => ({ layer, ours: timeOf(service, layer), theirs: timeOf(baseline, layer) }))
    .filter((row) => row.ours >= 0.5 || row.theirs >= 0.5)
    .sort((a, b) => b.ours - b.theirs - (a.ours - a.theirs))
}

/** What the profile says Workforce spends beyond the baseline: the JS time a request, and the layers that add most. */
export function beyondBaseline(pair: { service: ProfileResult; baseline: ProfileResult }, count = 4): string {
  const most = differences(pair)
    .filter((row) => row.ours > row.theirs)
    .slice(0, count)
    .map((row) => `${row.layer} +${us(row.ours - row.theirs)}`)
  return `the profile: ${us(pair.service.busyUs)} of JS a request against ${us(pair.baseline.busyUs)}, most of the difference ${most.join(', ')} ("Where the time goes")`
}

/** The section of RESULTS.md. */
export function layerSection(profiles: LayerProfiles): string {
  const table = (name: string, pair: { service: ProfileResult; baseline: ProfileResult }) => {
    const { service, baseline } = pair
    const rows = differences(pair)
    return `### ${name}

The JS thread's time a request: Workforce ${us(service.busyUs)}, the baseline ${us(baseline.busyUs)} (${(service.busyUs / Math.max(1, baseline.busyUs)).toFixed(1)}×); busy ${Math.round(100 * service.busyShare)}% and ${Math.round(100 * baseline.busyShare)}% of the measured time (the rest: Bun's HTTP in native code, the load driver, the machine's other work).

| layer | Workforce | baseline | difference |
|---|---|---|---|
${rows.map((row) => `| ${row.layer} | ${us(row.ours)} | ${us(row.theirs)} | ${row.ours - row.theirs >= 0 ? '+' : ''}${us(row.ours - row.theirs)} |`).join('\n')}

Workforce's busiest functions (inclusive): ${service.functions
      .slice(0, 8)
      .map((fn) => `\`${fn.name.trim()}\` ${us(fn.us)}`)
      .join(', ')}.`
  }
  return `## Where the time goes

Each server once more under \`bun --cpu-prof\` (a sample every 250 µs of its JS thread), after the same warm-up, taking S1's burst several times (undone in between) and S2's reads at 64 connections; only the samples of the measured load count. Self time by layer, builtins counted to their caller; "runtime, no JS caller" is mostly garbage collection. Profiling slows a server, so these runs give shares, not throughput. The baseline's own code (\`bench/baselines\`) is what stands in it for all of Workforce's layers. \`bun bench/profile.ts\` prints the same for one server and load, with more functions, and keeps the profile for Chrome DevTools.

${table('S1 clock-in (B4 beside it)', profiles.s1)}

${table('S2 employee reads (B5 beside it)', profiles.s2)}
`
}
