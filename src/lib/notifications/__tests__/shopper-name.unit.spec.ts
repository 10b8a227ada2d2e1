import { carriesLinkOrAddress, nameForMessage, oneLineName } from "../notification-data"

describe("a shopper's name in a message", () => {
  it("keeps the first line, without invisible marks, at most 60 characters", () => {
    expect(oneLineName("  Ada\r\n\r\nURGENT: your parcel is held")).toBe("Ada")
    expect(oneLineName("Ada\u202e\u200b  Byron")).toBe("Ada Byron")
    expect(oneLineName("é".repeat(80))).toHaveLength(60)
    expect(oneLineName("\n\n")).toBeNull()
  })

  it("leaves out a name that carries a link or an address", () => {
    for (const name of ["Ada https://evil.example", "Ada www.evil", "pay at evil.example", "ada@evil.example"]) {
      expect([name, carriesLinkOrAddress(name)]).toEqual([name, true])
      expect(nameForMessage(name)).toBeNull()
    }
    expect(nameForMessage("Jean-Luc O'Brien")).toBe("Jean-Luc O'Brien")
  })
})
