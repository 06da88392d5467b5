import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { renderTimeline, type TimelineRecord } from '../../src/timeline.js'
import { ARTIFACTS, describeBrowser, launch, watchedPage } from '../support/browser.js'
import {
  approvalScenarioRecord,
  cancelScenarioRecord,
  marbleRecords,
  scenarioRecords,
} from '../support/timelineRuns.js'

/** Each message bar of the order axis with its enqueue and dequeue/discard marks' x. */
const barsAndMarks = (page: Page) =>
  page.$$eval('.axis[data-axis="order"] .bar.msg', (bars) =>
    bars.map((bar) => {
      const id = bar.getAttribute('data-msg')!
      const svg = bar.closest('svg')!
      const cx = (sel: string) =>
        Number(svg.querySelector(`${sel}[data-msg="${id}"]`)?.getAttribute('cx') ?? Number.NaN)
      const rect = bar.querySelector('rect')!
      return {
        id,
        x: Number(rect.getAttribute('x')),
        width: Number(rect.getAttribute('width')),
        enqueue: cx('.mark.enqueue'),
        end: cx('.mark.dequeue'),
      }
    }),
  )

describeBrowser('timeline in a browser', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launch()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
  })

  it('the README cancel scenario: lanes, one bar per message between its enqueue and dequeue marks, the window shaded, no console errors', async () => {
    const { page, errors } = await watchedPage(browser)
    await page.setContent(renderTimeline(await cancelScenarioRecord()))
    const lanes = await page.$$eval('.axis[data-axis="order"] .lane', (gs) =>
      gs.map((g) => g.getAttribute('data-lane')),
    )
    expect(lanes).toStrictEqual(['inbox', 'turns', 'steps', 'tools', 'transcript', 'status'])
    const bars = await barsAndMarks(page)
    expect(bars).toHaveLength(3)
    for (const bar of bars) {
      expect(bar.x).toBeCloseTo(bar.enqueue, 3)
      expect(bar.x + bar.width).toBeCloseTo(bar.end, 3)
      expect(bar.width).toBeGreaterThan(0)
    }
    const window = await page.$eval('.axis[data-axis="order"] rect.window', (r) => {
      const box = r as SVGRectElement
      return {
        x: Number(box.getAttribute('x')),
        width: Number(box.getAttribute('width')),
        fill: getComputedStyle(box).fill,
      }
    })
    expect(window.width).toBeGreaterThan(0)
    expect(window.fill).not.toBe('none')
    await page.click('.axis[data-axis="order"] .bar.msg')
    await expect.poll(() => page.textContent('#details')).toContain(`"id": "${bars[0]!.id}"`)
    await page.click('button[data-axis="wall"]')
    expect(await page.isVisible('.axis[data-axis="wall"] svg')).toBe(true)
    await page.screenshot({ path: join(ARTIFACTS, 'timeline-cancel.png'), fullPage: true })
    expect(errors).toStrictEqual([])
  }, 120_000)

  it("a bar's label stays inside its bar, clear of the dot at its end; the whole text is its title", async () => {
    const { page, errors } = await watchedPage(browser)
    const long = 'a steer much longer than its bar'
    await page.setContent(renderTimeline(await cancelScenarioRecord(long)))
    const over = await page.$$eval('.axis[data-axis="order"] .bar', (bars) =>
      bars.flatMap((bar) => {
        const text = bar.querySelector('text')
        if (!text) return []
        const box = bar.querySelector('rect')!.getBoundingClientRect()
        // What shows of the label: the text, as far as what holds it lets it.
        const shown = Math.min(
          text.getBoundingClientRect().right,
          (text.closest('svg.label') ?? text).getBoundingClientRect().right,
        )
        // The dot at the bar's end has a radius of 5 (and a stroke): the label ends before it.
        return shown > box.right - 5 ? [`${text.textContent} ends at ${shown}, the bar at ${box.right}`] : []
      }),
    )
    expect(over).toStrictEqual([])
    expect(await page.textContent('.axis[data-axis="order"] .bar.steering text')).toMatch(/^a .*…$/)
    expect(await page.textContent('.axis[data-axis="order"] .bar.steering title')).toBe(long)
    await page.screenshot({ path: join(ARTIFACTS, 'timeline-labels.png'), fullPage: true })
    expect(errors).toStrictEqual([])
  }, 120_000)

  it('a message with <script> and an onerror image is shown as text and runs nothing', async () => {
    const { page, errors } = await watchedPage(browser)
    const evil = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">'
    await page.setContent(renderTimeline(await cancelScenarioRecord(evil)))
    await page.dispatchEvent('.axis[data-axis="order"] .bar.steering', 'click')
    await expect.poll(() => page.textContent('#details')).toContain(`"message": ${JSON.stringify(evil)}`)
    expect(await page.textContent('.axis[data-axis="order"] .bar.steering title')).toBe(evil)
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined()
    expect(await page.$$('img')).toHaveLength(0)
    expect(errors).toStrictEqual([])
  }, 120_000)

  it('R67: a paused turn: the approvals lane below the tools, a bar per call from its request mark to its decision mark, its details on click', async () => {
    const { page, errors } = await watchedPage(browser)
    await page.setContent(renderTimeline(await approvalScenarioRecord()))
    const lanes = await page.$$eval('.axis[data-axis="order"] .lane', (gs) =>
      gs.map((g) => g.getAttribute('data-lane')),
    )
    expect(lanes).toStrictEqual(['inbox', 'turns', 'steps', 'tools', 'approvals', 'transcript', 'status'])
    const spans = await page.$$eval('.axis[data-axis="order"] .bar.approval', (bars) =>
      bars.map((bar) => {
        const rect = bar.querySelector('rect')!
        const svg = bar.closest('svg')!
        const xs = (type: string) =>
          Array.from(svg.querySelectorAll(`.mark.durable.${type}`)).map((m) => Number(m.getAttribute('cx')))
        return {
          cls: bar.getAttribute('class'),
          x: Number(rect.getAttribute('x')),
          end: Number(rect.getAttribute('x')) + Number(rect.getAttribute('width')),
          requests: xs('approval-request'),
          decisions: xs('approval-decision'),
        }
      }),
    )
    expect(spans.map((s) => s.cls)).toStrictEqual(['bar approval approved', 'bar approval denied'])
    spans.forEach((span, i) => {
      expect(span.x).toBeCloseTo(span.requests[i]!, 3)
      expect(span.end).toBeCloseTo(span.decisions[i]!, 3)
    })
    await page.click('.axis[data-axis="order"] .bar.approval.denied')
    await expect.poll(() => page.textContent('#details')).toContain('"reason": "no"')
    expect(await page.isVisible('.axis[data-axis="order"] .bar.paused')).toBe(true)
    await page.screenshot({ path: join(ARTIFACTS, 'timeline-approvals.png'), fullPage: true })
    expect(errors).toStrictEqual([])
  }, 120_000)

  /** Each run renders, with a durable mark per transcript event and each message bar after its enqueue. */
  const renderAll = async (runs: readonly { name: string; record: TimelineRecord }[]) => {
    const { page, errors } = await watchedPage(browser)
    for (const { name, record } of runs) {
      await page.setContent(renderTimeline(record, { title: name }))
      const durable = record.entries.filter((e) => e.stream === 'transcript').length
      const marks = await page.$$eval('.axis[data-axis="order"] .mark.durable', (m) => m.length)
      expect({ name, marks }).toStrictEqual({ name, marks: durable })
      const bars = await barsAndMarks(page)
      for (const bar of bars)
        expect({ name, before: bar.x >= bar.enqueue - 0.001 }).toStrictEqual({ name, before: true })
      expect({ name, errors }).toStrictEqual({ name, errors: [] })
    }
  }

  it('renders every end-to-end scenario (test/support/scenarios.ts) without errors', async () => {
    await renderAll(await scenarioRecords())
  }, 180_000)

  it('renders every scenario of the marble suite without errors', async () => {
    const runs = marbleRecords()
    expect(runs.length).toBeGreaterThanOrEqual(30)
    await renderAll(runs)
  }, 400_000)
})
