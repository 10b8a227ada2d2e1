import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { isTimeZone, serverTimeZone } from "../time-zone"

describe("isTimeZone", () => {
  it.each(["Europe/London", "UTC", "America/New_York", "Asia/Kolkata", "Etc/GMT+1"])("knows %s", (name) => {
    expect(isTimeZone(name)).toBe(true)
  })

  it.each([["Europe/Londn"], ["Mars/Olympus_Mons"], [""], ["  "], [undefined], [null], [0], [{}]])(
    "refuses %p",
    (value) => {
      expect(isTimeZone(value)).toBe(false)
    }
  )
})

describe("serverTimeZone", () => {
  /** serverTimeZone() in a fresh Node started with TZ set (Jest's process.env does not reach the runtime's zone). */
  const zoneUnder = (tz: string) =>
    execFileSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `process.stdout.write(require(${JSON.stringify(join(__dirname, "..", "time-zone"))}).serverTimeZone())`,
      ],
      { env: { ...process.env, TZ: tz }, encoding: "utf8" }
    )

  it("is the zone TZ names", () => {
    expect([zoneUnder("Asia/Tokyo"), zoneUnder("America/Sao_Paulo")]).toEqual(["Asia/Tokyo", "America/Sao_Paulo"])
  })

  it("is UTC when the runtime knows no zone", () => {
    const real = Intl.DateTimeFormat.prototype.resolvedOptions
    const spy = jest.spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockImplementation(function (
      this: Intl.DateTimeFormat
    ) {
      return { ...real.call(this), timeZone: "" }
    })
    try {
      expect(serverTimeZone()).toBe("UTC")
    } finally {
      spy.mockRestore()
    }
  })
})
