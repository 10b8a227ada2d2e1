import { countryName } from "../country-names"

describe("countryName", () => {
  it("names countries from ISO codes in either case, and refuses non-countries", () => {
    expect(countryName("gb")).toBe("United Kingdom")
    expect(countryName("JP")).toBe("Japan")
    expect(countryName("zz")).toBeUndefined()
    expect(countryName("")).toBeUndefined()
    expect(countryName("gbr")).toBeUndefined()
  })
})
