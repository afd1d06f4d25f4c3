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
        // A run of spaces inside is one (the first of it); one full-width space stays.
        #expect(AccountInput.normalizedDisplayName("Erin  K") == "Erin K")
        #expect(AccountInput.normalizedDisplayName("Erin \u{00A0} K") == "Erin K")
        #expect(AccountInput.normalizedDisplayName("山田\u{3000}太郎") == "山田\u{3000}太郎")
        #expect(QuickEntry.sameName("Erin  K", "erin k"))
        #expect(AccountInput.normalizedDisplayName("   ") == nil)
        #expect(AccountInput.normalizedDisplayName(String(repeating: "a", count: 100)) != nil)
        #expect(AccountInput.normalizedDisplayName(String(repeating: "a", count: 101)) == nil)
    }

    @Test("names and emails are composed (NFC): café typed two ways is one (issue 14 item 12)")
    func composed() {
        let decomposed = "cafe\u{0301}"
        #expect(AccountInput.normalizedEmail("\(decomposed)@example.com") == "caf\u{00E9}@example.com")
        #expect(AccountInput.normalizedDisplayName(decomposed)?.unicodeScalars.count == 4)
        #expect(AccountInput.normalizedDisplayName(decomposed) == "caf\u{00E9}")
    }

    @Test("names that draw nothing, turn text around or stack marks are refused; real scripts are not")
    func unreadableNames() {
        for bad in [
            "\u{FEFF}", "\u{200B}\u{200D}", " \u{3164} ", "\u{2800}",  // nothing visible
            "Aki\u{202E}oB", "\u{2067}Bo\u{2069}", "\u{202A}Aki",  // direction overrides and isolates
            "Z" + String(repeating: "\u{0336}", count: 90),  // 90 combining marks
            "q\u{0300}\u{0301}\u{0302}\u{0303}\u{0304}",  // five on one letter
        ] {
            #expect(
                AccountInput.normalizedDisplayName(bad) == nil,
                "\(bad.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        for good in [
            "Nguyễn Văn An", "สมชาย", "אָבִי", "محمد", "田中 太郎", "👍🏽 Bo", "Anne-Marie O'Neil",
            "\u{FEFF}Aki",  // a stray byte-order mark is trimmed, not refused
        ] {
            #expect(AccountInput.normalizedDisplayName(good) != nil, "\(good)")
        }
        #expect(AccountInput.normalizedDisplayName("\u{FEFF}Aki") == "Aki")
    }
}

@Test("a wait is said in seconds, minutes or hours, rounded up")
func waitText() {
    #expect(WaitText.phrase(seconds: 0) == "1 s")
    #expect(WaitText.phrase(seconds: 119) == "119 s")
    #expect(WaitText.phrase(seconds: 120) == "2 minutes")
    #expect(WaitText.phrase(seconds: 3_601) == "61 minutes")
    #expect(WaitText.phrase(seconds: 7_200) == "2 hours")
    #expect(WaitText.phrase(seconds: 86_399) == "24 hours")
}
