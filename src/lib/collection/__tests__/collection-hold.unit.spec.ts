import {
  MAX_WRONG_CODES,
  checkHandOver,
  endsOnClosedDate,
  isExpired,
  merchantCollectionView,
  newCollectionRecord,
  readCollectionRecord,
  shopperCollectionView,
  withExtension,
  withReady,
} from "../collection-hold"
import { CODE_ALPHABET, CODE_LENGTH, codeMatches, newCollectionCode, shownCode } from "../collection-code"

const now = new Date("2026-12-02T12:00:00Z")
const booked = { status: "booked", tracking_state: "shipped", cancelled: false }
const ready = () =>
  withReady(
    { ...newCollectionRecord(7), code: "ACE479" },
    { ready_at: "2026-12-01T11:00:00.000Z", collect_by: "2026-12-09T18:00:00.000Z" },
    7
  )

describe("a collection's code and hold", () => {
  it("draws six characters without look-alikes, matched whatever the merchant typed around them", () => {
    const codes = new Set(Array.from({ length: 200 }, newCollectionCode))
    expect(codes.size).toBeGreaterThan(195)
    for (const code of codes) {
      expect(code).toHaveLength(CODE_LENGTH)
      expect([...code].every((c) => CODE_ALPHABET.includes(c))).toBe(true)
    }
    expect(CODE_ALPHABET).not.toMatch(/[0O1IL2Z5S8B6GUVDQ]/)
    expect(codeMatches(" ace-479 ", "ACE479")).toBe(true)
    expect(codeMatches("ACE47", "ACE479")).toBe(false)
    expect(codeMatches("ACE470", "ACE479")).toBe(false)
    expect(shownCode("ACE479")).toBe("ACE 479")
  })

  it("finds a ready hold that ends on a closed date in the store's zone, never a passed, collected or cancelled one", () => {
    const record = ready()
    // 18:00Z on 9 December is the 9th in London and the 10th in Auckland.
    expect(endsOnClosedDate(booked, record, ["2026-12-09"], "Europe/London", now)).toBe(true)
    expect(endsOnClosedDate(booked, record, ["2026-12-09"], "Pacific/Auckland", now)).toBe(false)
    expect(endsOnClosedDate(booked, record, ["2026-12-08"], "Europe/London", now)).toBe(false)
    expect(endsOnClosedDate(booked, record, ["2026-12-09"], "Europe/London", new Date("2026-12-10T00:00:00Z"))).toBe(
      false
    )
    expect(endsOnClosedDate({ ...booked, cancelled: true }, record, ["2026-12-09"], "Europe/London", now)).toBe(false)
    expect(
      endsOnClosedDate({ ...booked, tracking_state: "delivered" }, record, ["2026-12-09"], "Europe/London", now)
    ).toBe(false)
    expect(endsOnClosedDate(booked, newCollectionRecord(7), ["2026-12-09"], "Europe/London", now)).toBe(false)
  })

  it("locks the hand-over by code at the fifth wrong code in 15 minutes, the right code included, until the window moves", () => {
    let record = ready()
    for (let i = 1; i < MAX_WRONG_CODES; i++) {
      const check = checkHandOver(record, { code: "WWWWWW" }, now)
      expect(check).toMatchObject({ ok: false, refusal: "wrong_code", attempts_left: MAX_WRONG_CODES - i })
      record = (check as { record: typeof record }).record
    }
    const fifth = checkHandOver(record, { code: "WWWWWW" }, now)
    expect(fifth).toMatchObject({ ok: false, refusal: "locked", retry_at: "2026-12-02T12:15:00.000Z" })
    record = (fifth as { record: typeof record }).record
    expect(checkHandOver(record, { code: "ACE479" }, now)).toMatchObject({ ok: false, refusal: "locked" })
    // An override is the merchant's decision and is never locked.
    expect(checkHandOver(record, { override_reason: "photo ID" }, now)).toEqual({
      ok: true,
      via: "override",
      reason: "photo ID",
    })
    const later = new Date(now.getTime() + 15 * 60_000)
    expect(checkHandOver(record, { code: "ace479" }, later)).toEqual({ ok: true, via: "code", reason: null })
  })

  it("shows the merchant the hold and never the code; the shopper the code once ready, until collected", () => {
    const record = ready()
    const view = merchantCollectionView(record, booked, now)
    expect(JSON.stringify(view)).not.toContain("ACE479")
    expect(view).toMatchObject({
      collect_by: "2026-12-09T18:00:00.000Z",
      expired: false,
      can_hand_over: true,
      can_extend: true,
    })
    expect(shopperCollectionView(newCollectionRecord(7), booked, null, now)).toBeNull()
    expect(shopperCollectionView(record, booked, null, now)).toMatchObject({ code: "ACE479", collected: false })
    const collected = {
      ...record,
      handed_over: { at: now.toISOString(), via: "code" as const, actor_id: null, reason: null },
    }
    expect(shopperCollectionView(collected, { ...booked, tracking_state: "delivered" }, null, now)).toMatchObject({
      code: null,
      collected: true,
    })
    expect(merchantCollectionView(collected, booked, now)).toMatchObject({ can_hand_over: false, can_extend: false })
  })

  it("is expired once its collect-by passes, the latest extension's when extended", () => {
    const record = ready()
    const after = new Date("2026-12-09T18:00:01Z")
    expect(isExpired(booked, record, after)).toBe(true)
    const extended = withExtension(record, {
      at: after.toISOString(),
      days: 3,
      collect_by: "2026-12-12T16:00:00.000Z",
      actor_id: "user_1",
    })
    expect(isExpired(booked, extended, after)).toBe(false)
    expect(isExpired({ ...booked, cancelled: true }, record, after)).toBe(false)
    // A row's JSON written by hand or by an older version reads as no record, never a crash.
    expect(readCollectionRecord({ code: "" })).toBeNull()
    expect(readCollectionRecord("nonsense")).toBeNull()
    expect(readCollectionRecord({ ...record, extensions: "x" })?.extensions).toEqual([])
  })
})
