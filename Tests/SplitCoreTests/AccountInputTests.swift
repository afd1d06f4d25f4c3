import Testing

@testable import SplitCore

@Suite("Account input: one normal form for emails, phones and names")
struct AccountInputTests {
    @Test("emails are trimmed and lower-cased; malformed ones are refused")
    func emails() {
        #expect(AccountInput.normalizedEmail("  Aki@Example.COM ") == "aki@example.com")
        for bad in [
            "", "aki", "aki@", "@example.com", "aki@example", "a b@example.com", "a@b@c.com", "aki@.com", "aki@com.",
        ] {
            #expect(AccountInput.normalizedEmail(bad) == nil, "\(bad)")
        }
    }

    @Test("phones keep a + and the digits; a country code is required")
    func phones() {
        #expect(AccountInput.normalizedPhone("+60 12-345 6789") == "+60123456789")
        #expect(AccountInput.normalizedPhone("0065 9123 4567") == "+6591234567")
        #expect(AccountInput.normalizedPhone("+81 (90) 1234.5678") == "+819012345678")
        for bad in ["", "012-345 6789", "+12", "+0123456789", "+60 12 345 678x", "+1234567890123456", "+６０123456789"] {
            #expect(AccountInput.normalizedPhone(bad) == nil, "\(bad)")
        }
    }

    @Test("display names are trimmed, 1 to 100 characters")
    func names() {
        #expect(AccountInput.normalizedDisplayName("  Aki ") == "Aki")
        #expect(AccountInput.normalizedDisplayName("   ") == nil)
        #expect(AccountInput.normalizedDisplayName(String(repeating: "a", count: 100)) != nil)
        #expect(AccountInput.normalizedDisplayName(String(repeating: "a", count: 101)) == nil)
    }
}
