/// The content of iNippon's History page: the periods of Japanese history, each with a few events in
/// English and Japanese (written for this project; dates are the commonly taught ones).
package struct HistoryPeriod: Sendable {
    /// One event: its text in both languages.
    package struct Event: Sendable {
        package let english: String
        package let japanese: String
        /// The text in `language`.
        func text(in language: Language) -> String { language == .english ? english : japanese }
    }

    /// The language an event is shown in.
    enum Language: Sendable { case english, japanese }

    package let english: String
    let japanese: String
    /// The years, as shown under the name.
    let years: String
    package let events: [Event]
}

extension HistoryPeriod {
    /// Jōmon to Heisei, oldest first.
    package static let all: [HistoryPeriod] = [
        HistoryPeriod(english: "Jōmon", japanese: "縄文時代", years: "c. 14,000 – 300 BC", events: [
            Event(english: "Pottery decorated with cord marks gives the period its name.", japanese: "縄目の文様をつけた土器が時代の名の由来となった。"),
            Event(english: "People lived in pit dwellings and lived by hunting, fishing and gathering.", japanese: "人々は竪穴住居に住み、狩猟・漁労・採集で暮らした。"),
            Event(english: "Sannai-Maruyama in Aomori was a large village for about 1,500 years.", japanese: "青森の三内丸山には約1500年にわたり大きな集落があった。"),
        ]),
        HistoryPeriod(english: "Yayoi", japanese: "弥生時代", years: "c. 300 BC – AD 250", events: [
            Event(english: "Wet-rice farming spread from Kyushu across western Japan.", japanese: "水田稲作が九州から西日本に広まった。"),
            Event(english: "Bronze and iron tools arrived from the continent.", japanese: "大陸から青銅器と鉄器が伝わった。"),
            Event(english: "Chinese records tell of Queen Himiko of Yamatai.", japanese: "中国の歴史書が邪馬台国の女王卑弥呼について記している。"),
        ]),
        HistoryPeriod(english: "Kofun", japanese: "古墳時代", years: "c. 250 – 538", events: [
            Event(english: "Rulers were buried in great keyhole-shaped mounds.", japanese: "支配者は巨大な前方後円墳に葬られた。"),
            Event(english: "The Yamato court extended its power over much of Japan.", japanese: "ヤマト王権が日本の広い地域に勢力を広げた。"),
            Event(english: "Writing in Chinese characters came into use.", japanese: "漢字による文字の使用が始まった。"),
        ]),
        HistoryPeriod(english: "Asuka", japanese: "飛鳥時代", years: "538 – 710", events: [
            Event(english: "538: Buddhism was introduced from Baekje.", japanese: "538年、百済から仏教が伝えられた。"),
            Event(english: "604: Prince Shōtoku issued the Seventeen-Article Constitution.", japanese: "604年、聖徳太子が十七条憲法を定めた。"),
            Event(english: "607: Hōryū-ji was founded.", japanese: "607年、法隆寺が建てられた。"),
            Event(english: "645: The Taika Reform began.", japanese: "645年、大化の改新が始まった。"),
        ]),
        HistoryPeriod(english: "Nara", japanese: "奈良時代", years: "710 – 794", events: [
            Event(english: "710: The capital moved to Heijō-kyō, today's Nara.", japanese: "710年、都が平城京に移された。"),
            Event(english: "712: The Kojiki, the oldest surviving chronicle, was completed.", japanese: "712年、現存最古の歴史書『古事記』が完成した。"),
            Event(english: "752: The Great Buddha of Tōdai-ji was dedicated.", japanese: "752年、東大寺の大仏の開眼供養が行われた。"),
            Event(english: "The Man'yōshū, the oldest collection of poems, was compiled.", japanese: "最古の歌集『万葉集』がまとめられた。"),
        ]),
        HistoryPeriod(english: "Heian", japanese: "平安時代", years: "794 – 1185", events: [
            Event(english: "794: Emperor Kanmu moved the capital to Heian-kyō, today's Kyoto.", japanese: "794年、桓武天皇が都を平安京に移した。"),
            Event(english: "The kana scripts developed from Chinese characters.", japanese: "漢字からかな文字が生まれた。"),
            Event(english: "Murasaki Shikibu wrote The Tale of Genji.", japanese: "紫式部が『源氏物語』を書いた。"),
            Event(english: "The Fujiwara family ruled as regents for the emperors.", japanese: "藤原氏が摂政・関白として政治を行った。"),
            Event(english: "1185: The Minamoto defeated the Taira at Dan-no-ura.", japanese: "1185年、源氏が壇ノ浦で平氏を破った。"),
        ]),
        HistoryPeriod(english: "Kamakura", japanese: "鎌倉時代", years: "1185 – 1333", events: [
            Event(english: "1192: Minamoto no Yoritomo became shōgun.", japanese: "1192年、源頼朝が征夷大将軍に任じられた。"),
            Event(english: "1274 and 1281: Two Mongol invasions were turned back.", japanese: "1274年と1281年、二度の元の襲来を退けた。"),
            Event(english: "New Buddhist schools such as Zen and Pure Land spread.", japanese: "禅宗や浄土宗など新しい仏教が広まった。"),
            Event(english: "1333: The Kamakura shogunate fell.", japanese: "1333年、鎌倉幕府が滅んだ。"),
        ]),
        HistoryPeriod(english: "Muromachi", japanese: "室町時代", years: "1336 – 1573", events: [
            Event(english: "1338: Ashikaga Takauji became shōgun.", japanese: "1338年、足利尊氏が征夷大将軍となった。"),
            Event(english: "1397: Ashikaga Yoshimitsu built the Golden Pavilion.", japanese: "1397年、足利義満が金閣を建てた。"),
            Event(english: "Zeami perfected the Noh theatre.", japanese: "世阿弥が能を大成した。"),
            Event(english: "1467: The Ōnin War began a century of civil war.", japanese: "1467年、応仁の乱が起こり、戦国の世が始まった。"),
            Event(english: "1543: Portuguese traders brought firearms to Tanegashima.", japanese: "1543年、ポルトガル人が種子島に鉄砲を伝えた。"),
        ]),
        HistoryPeriod(english: "Azuchi–Momoyama", japanese: "安土桃山時代", years: "1573 – 1603", events: [
            Event(english: "Oda Nobunaga began to unify the country.", japanese: "織田信長が天下統一を進めた。"),
            Event(english: "1590: Toyotomi Hideyoshi completed the unification.", japanese: "1590年、豊臣秀吉が全国を統一した。"),
            Event(english: "Sen no Rikyū refined the tea ceremony.", japanese: "千利休が茶の湯を大成した。"),
            Event(english: "1600: Tokugawa Ieyasu won the Battle of Sekigahara.", japanese: "1600年、徳川家康が関ヶ原の戦いに勝った。"),
        ]),
        HistoryPeriod(english: "Edo", japanese: "江戸時代", years: "1603 – 1868", events: [
            Event(english: "1603: Tokugawa Ieyasu founded the shogunate in Edo.", japanese: "1603年、徳川家康が江戸に幕府を開いた。"),
            Event(english: "1639: The ports were closed to all European ships but the Dutch.", japanese: "1639年、オランダ以外のヨーロッパ船に港が閉ざされた。"),
            Event(english: "Kabuki, ukiyo-e prints and haiku flourished in the cities.", japanese: "都市で歌舞伎、浮世絵、俳句が栄えた。"),
            Event(english: "1853: Commodore Perry's black ships arrived at Uraga.", japanese: "1853年、ペリーの黒船が浦賀に来航した。"),
            Event(english: "1867: The shōgun returned power to the emperor.", japanese: "1867年、将軍が政権を朝廷に返した（大政奉還）。"),
        ]),
        HistoryPeriod(english: "Meiji", japanese: "明治時代", years: "1868 – 1912", events: [
            Event(english: "1868: The Meiji Restoration; Edo was renamed Tokyo.", japanese: "1868年、明治維新。江戸は東京と改められた。"),
            Event(english: "1871: The feudal domains were abolished and replaced by prefectures governed from Tokyo, ending a system of local rule by lords that had lasted for centuries.",
                  japanese: "1871年、廃藩置県により藩が廃止されて東京から治められる県に置き換えられ、何世紀も続いた大名による地方支配が終わった。"),
            Event(english: "1872: The first railway opened between Shinbashi and Yokohama.", japanese: "1872年、新橋・横浜間に最初の鉄道が開業した。"),
            Event(english: "1889: The Meiji Constitution was promulgated.", japanese: "1889年、大日本帝国憲法が発布された。"),
        ]),
        HistoryPeriod(english: "Taishō", japanese: "大正時代", years: "1912 – 1926", events: [
            Event(english: "1923: The Great Kantō Earthquake struck Tokyo and Yokohama.", japanese: "1923年、関東大震災が東京と横浜を襲った。"),
            Event(english: "1925: Radio broadcasting began.", japanese: "1925年、ラジオ放送が始まった。"),
            Event(english: "1925: All men aged 25 and over gained the vote.", japanese: "1925年、25歳以上のすべての男子に選挙権が与えられた。"),
        ]),
        HistoryPeriod(english: "Shōwa", japanese: "昭和時代", years: "1926 – 1989", events: [
            Event(english: "1945: The Second World War ended.", japanese: "1945年、第二次世界大戦が終わった。"),
            Event(english: "1947: The present Constitution took effect.", japanese: "1947年、日本国憲法が施行された。"),
            Event(english: "1964: The Tōkaidō Shinkansen opened and Tokyo held the Olympics.", japanese: "1964年、東海道新幹線が開業し、東京オリンピックが開かれた。"),
            Event(english: "1970: The World Expo was held in Osaka.", japanese: "1970年、大阪で万国博覧会が開かれた。"),
        ]),
        HistoryPeriod(english: "Heisei", japanese: "平成時代", years: "1989 – 2019", events: [
            Event(english: "1995: The Great Hanshin Earthquake struck Kobe.", japanese: "1995年、阪神・淡路大震災が神戸を襲った。"),
            Event(english: "1998: Nagano held the Winter Olympics.", japanese: "1998年、長野で冬季オリンピックが開かれた。"),
            Event(english: "2011: The Great East Japan Earthquake and tsunami.", japanese: "2011年、東日本大震災が起きた。"),
            Event(english: "2019: The era ended when the emperor stepped down.", japanese: "2019年、天皇の退位により平成が終わった。"),
        ]),
    ]
}
