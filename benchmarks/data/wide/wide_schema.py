"""The relations of the wide dev KG, written by hand, grouped by the type of entity they describe.

A relation: ``label > range [flags] [; out frame [; in frame]]``; several without frames may share
a line, separated by `` · ``.

- ``range``: an entity type of `wide_names.TYPES`, or a literal: ``@year:LO:HI``, ``@date:LO:HI``
  (ISO dates), ``@num:LO:HI`` (whole numbers, spread log-uniformly), or ``@year+BASE:LO:HI`` /
  ``@date+BASE:LO:HI``: LO to HI years after the head's value of relation BASE (a death after a birth).
- flags: ``1`` one value a head (else one to three), ``~`` symmetric (stored both ways), ``v`` a
  verb ("depicts": else a noun or a phrase after "is"), ``%N``: N % of the type's entities have it.
- frames: other words for the relation, asked of its head (out) or of its value (in), ``{}`` where
  the other end goes; a question uses them or the relation's own label.

A label may describe several types ("country", "inception"): it is one relation of the KG.
"""

from __future__ import annotations

RELATIONS = {
    "human": """
        date of birth > @date:1850:2004 1 %46 ; when was {} born
        country of citizenship > country %58 ; what nationality does {} have
        occupation > occupation %58 ; what does {} do for a living
        place of birth > city 1 %52 ; where was {} born ; who was born in {}
        date of death > @date+date of birth:30:96 1 %23 ; when did {} die
        place of death > city 1 %20 ; where did {} die ; who died in {}
        educated at > university %29 ; where did {} study ; who studied at {}
        employer > company %23 ; who does {} work for ; who works for {}
        award received > award %16 ; what prizes did {} win ; who won {}
        native language > language 1 %26 ; what is the mother tongue of {}
        languages spoken, written or signed > language %20 ; which tongues does {} know
        spouse > human 1 ~ %13 ; who is {} married to
        father > human 1 %8 ; who is the dad of {}
        mother > human 1 %8 ; who is the mom of {}
        sibling > human ~ %8 ; who are the brothers and sisters of {}
        member of political party > political party %10 ; which party does {} belong to
        member of sports team > sports team %10 ; who has {} played for ; who played for {}
        residence > city %13 ; where does {} live ; who lives in {}
        field of work > academic discipline %13 ; what does {} research
        height > @num:150:205 1 %13 ; how tall is {}
        mass > @num:45:130 1 %6 ; how heavy is {}
        instrument > musical instrument %6 ; what does {} play
        doctoral advisor > human 1 %5 ; who supervised the thesis of {}
        student of > human %5 ; who taught {}
        influenced by > human %6 ; who inspired {}
        participant in > event %6 ; what did {} take part in ; who took part in {}
        medical condition > disease %4 ; what illness did {} have
        cause of death > disease 1 %5 ; what did {} die of
        work location > city %5 ; where did {} work
        number of children > @num:1:9 1 %5 ; how many kids does {} have
        work period (start) > @year:1870:2020 1 %6 ; when did {} start working
        place of burial > building 1 %5 ; where is {} buried
        conflict > event %5 ; which wars did {} fight in
        genre > genre %8 · record label > record label %5 · nominated for > award %6 · notable work > book %5
        military branch > organization 1 %5 · member of > organization %8 · affiliation > organization %4
        allegiance > country 1 %4 · league > sports league 1 %4 · drafted by > sports team 1 %3
        unmarried partner > human 1 ~ %4 · relative > human ~ %4 · godparent > human 1 %3
        owner of > building %3 · represented by > company 1 %4 · member of the crew of > ship %4
        described by source > book %4 · partner in business or sport > human ~ %4 · candidacy in election > event %3
        writing language > language %4 · coach of sports team > sports team 1 %3 · movement > genre %5
        academic appointment > university %5 · place of detention > building 1 %2 · exhibited at > building %3
        honorary citizen of > city %4 · copyright representative > organization 1 %2
        military unit > organization 1 %3 · official residence > building 1 %2 · country for sport > country 1 %4
        victory > event %2
    """,
    "city": """
        country > country 1 %100 ; in which nation is {}
        population > @num:2000:3500000 1 %95 ; how many people live in {}
        inception > @year:1050:1950 1 %50 ; when was {} founded
        elevation above sea level > @num:1:3200 1 %60 ; how high up is {}
        area > @num:5:1800 1 %50 ; how big is {}
        head of government > human 1 %40 ; who is the mayor of {}
        twinned administrative body > city ~ %25 ; what are the sister cities of {}
        located in or next to body of water > river %30 ; which waters flow through {}
        named after > human 1 %10 ; who gave {} its name
        located in the administrative territorial entity > region 1 %90 · shares border with > city ~ v %20
        official language > language %15 · highest point > mountain 1 %10 · significant event > event %15
        founded by > human 1 %10 · member of > organization %8 · patron saint > human 1 %10
        main railway station > building 1 %12 · airport > building 1 %8 · historic county > region 1 %10
        enclave within > city 1 %2
    """,
    "region": """
        capital > city 1 %80 ; what is the seat of government of {}
        country > country 1 %100 · population > @num:50000:9000000 1 %90 · area > @num:400:250000 1 %70
        head of government > human 1 %50 · official language > language %30 · inception > @year:900:1990 1 %40
        shares border with > region ~ v %40 · highest point > mountain 1 %30 · legislative body > organization 1 %30
        territory claimed by > country %8 · historical capital > city 1 %15
    """,
    "country": """
        continent > continent 1 %100 ; where in the world is {}
        capital > city 1 %100 ; what is the seat of government of {} ; which nation is governed from {}
        official language > language %100 ; what do people speak officially in {}
        population > @num:200000:200000000 1 %100 ; how many people live in {}
        head of state > human 1 %80 ; who leads {}
        shares border with > country ~ v %80 ; which nations are next to {}
        area > @num:2000:9000000 1 %90 ; how big is {}
        inception > @year:1200:1995 1 %80 ; when was {} founded
        head of government > human 1 %80 · member of > organization %70 · highest point > mountain 1 %60
        lowest point > lake 1 %30 · diplomatic relation > country ~ %50 · legislative body > organization 1 %50
        life expectancy > @num:45:85 1 %60 · nominal GDP > @num:500000000:20000000000000 1 %60
        central bank > organization 1 %40 · highest judicial authority > organization 1 %30
        official symbol > species %30 · founded by > human 1 %20 · executive body > organization 1 %40
        largest city > city 1 %70 · language used > language %60 · national team > sports team %25
        national library > building 1 %30 · replaces > country 1 v %10 · participant in > event %20
    """,
    "continent": """
        area > @num:3000000:45000000 1 %100 · population > @num:1000:4500000000 1 %100
        highest point > mountain 1 %100 · largest city > city 1 %100 · lowest point > lake 1 %100
    """,
    "organization": """
        headquarters location > city 1 %80 ; where is {} based
        founded by > human %40 ; who started {}
        director / manager > human 1 %50 ; who runs {}
        country > country 1 %90 · inception > @year:1800:2020 1 %70 · number of members > @num:10:500000 1 %30
        parent organization > organization 1 %20 · field of work > academic discipline %30 · chairperson > human 1 %30
        secretary general > human 1 %15 · spokesperson > human 1 %10 · operating area > country %20
        affiliation > organization %15 · official language > language %15 · award received > award %10
        sponsor > company %10 · president > human 1 %20 · patron > human %8 · honorary president > human 1 %8
    """,
    "company": """
        headquarters location > city 1 %64 ; where is {} based
        industry > industry %68 ; what business is {} in
        inception > @year:1820:2020 1 %60 ; when was {} started
        founded by > human %41 ; who started {} ; what did {} start
        chief executive officer > human 1 %45 ; who runs {}
        number of employees > @num:12:250000 1 %45 ; how many people work at {}
        product or material produced > chemical compound %15 ; what does {} make
        country > country 1 %71 · parent organization > company 1 %19 · owned by > company 1 %11
        total revenue > @num:100000:90000000000 1 %30 · operating area > country %19 · board member > human %15
        stock exchange > organization 1 %15 · successor > company 1 %6 · auditor > company 1 %8
        owner of > building %8 · award received > award %6 · member of > organization %8 · key person > human %11
        competitor > company ~ %11 · investor > company %8 · supplier > company %8
        chief financial officer > human 1 %15 · chief technology officer > human 1 %11
    """,
    "university": """
        inception > @year:1100:2010 1 %90 ; when was {} founded
        number of students > @num:300:90000 1 %70 ; how many people study at {}
        rector > human 1 %50 ; who heads {}
        country > country 1 %100 · located in the administrative territorial entity > city 1 %95
        founded by > human %30 · chancellor > human 1 %30 · member of > organization %30
        affiliation > organization %20
        campus > city %15 · mascot > species 1 %10 · award received > award %10 · provost > human 1 %20
        faculty member > human %40 · partner university > university ~ %20 · main library > building 1 %20
    """,
    "film": """
        director > human 1 %100 ; who made {} ; what did {} make
        publication date > @year:1920:2023 1 %100 ; when did {} come out
        cast member > human %95 ; who acted in {} ; what did {} act in
        genre > genre %95 ; what kind of film is {}
        screenwriter > human %70 ; who wrote the script for {} ; what scripts did {} write
        original language of film or TV show > language 1 %90 ; what language is {} in
        country of origin > country 1 %90 ; where was {} produced
        composer > human 1 %50 ; who wrote the music for {}
        duration > @num:70:190 1 %70 ; how long is {}
        based on > book 1 %20 ; what is {} adapted from
        narrative location > city %20 ; where is {} set
        filming location > city %20 ; where was {} shot
        followed by > film 1 %8 ; what came after {}
        producer > human %50 · production company > company %40 · distributed by > company 1 %40
        director of photography > human 1 %30 · film editor > human 1 %30 · box office > @num:10000:900000000 1 %30
        award received > award %15 · nominated for > award %15 · costume designer > human 1 %15
        production designer > human 1 %15 · assistant director > human 1 %10 · casting director > human 1 %10
        choreographer > human 1 %6 · art director > human 1 %8 · makeup artist > human 1 %6 · narrator > human 1 %6
        main subject > event 1 %8 · executive producer > human %10 · sound designer > human 1 %8
        voice actor > human %8 · location of first performance > city 1 %10 · set in period > event 1 %6
        remake of > film 1 %4 · storyboard artist > human 1 %4
    """,
    "television series": """
        creator > human %90 ; who came up with {}
        original broadcaster > company 1 %90 ; which channel aired {}
        start time > @year:1955:2022 1 %80 ; when did {} premiere
        cast member > human %90 · genre > genre %90 · country of origin > country 1 %90
        original language of film or TV show > language 1 %80 · number of seasons > @num:1:12 1 %80
        number of episodes > @num:6:250 1 %80 · end time > @year+start time:1:12 1 %50
        production company > company %40 · composer > human 1 %30 · narrative location > city %30
        executive producer > human %30 · presenter > human %15 · showrunner > human 1 %30 · filming location > city %20
        award received > award %15 · head writer > human 1 %20 · guest star > human %20 · director > human %30
    """,
    "book": """
        author > human %100 ; who wrote {} ; what did {} write
        publication date > @year:1700:2023 1 %95 ; when was {} published
        language of work or name > language 1 %90 ; what language is {} in
        publisher > company 1 %70 ; who put out {}
        number of pages > @num:80:1200 1 %60 ; how long is {}
        main subject > academic discipline %20 ; what is {} about
        genre > genre %90 · country of origin > country 1 %60 · illustrator > human 1 %15 · translator > human %15
        followed by > book 1 %10 · narrative location > city %20 · award received > award %15 · dedicatee > human 1 %8
        editor > human 1 %8 · published in > periodical 1 %6 · cover artist > human 1 %10
        place of publication > city 1 %30 · printed by > company 1 %8 · copyright holder > human 1 %6
        inspired by > book %8 · author of foreword > human 1 %8 · author of afterword > human 1 %4
        ghostwriter > human 1 %3
        manuscript location > building 1 %5 · banned in > country %4
    """,
    "periodical": """
        editor-in-chief > human 1 %70 ; who edits {}
        circulation > @num:1000:3000000 1 %50 ; how many copies does {} sell
        publisher > company 1 %80 · language of work or name > language 1 %100 · country of origin > country 1 %100
        inception > @year:1750:2015 1 %90 · main subject > academic discipline %50 · headquarters location > city 1 %60
        owned by > company 1 %30 · founded by > human %30 · contributing editor > human %20 · columnist > human %30
    """,
    "album": """
        performer > band 1 %100 ; who recorded {} ; what did {} record
        publication date > @year:1950:2023 1 %100 ; when did {} come out
        record label > record label %90 ; which company released {}
        producer > human %60 ; who produced {}
        number of tracks > @num:6:22 1 %70 ; how many songs are on {}
        recorded at studio or venue > building 1 %30 ; where was {} made
        genre > genre %95 · duration > @num:25:80 1 %50 · followed by > album 1 %30
        language of work or name > language 1 %30 · award received > award %10 · cover artist > human 1 %15
        mixing engineer > human 1 %15 · lyricist > human %20 · distributed by > company 1 %15
        featured artist > human %15 · mastering engineer > human 1 %10 · arranger > human %10 · conductor > human 1 %5
        recording engineer > human 1 %10
    """,
    "band": """
        genre > genre %100 ; what kind of music does {} play
        country of origin > country 1 %100 ; where is {} from
        location of formation > city 1 %80 ; where did {} form
        inception > @year:1955:2020 1 %90 ; when did {} get together
        band member > human %100 ; who played in {} ; which groups did {} play in
        dissolved, abolished or demolished date > @year+inception:2:40 1 %30 ; when did {} split up
        record label > record label %70 · influenced by > band %30 · award received > award %15 · founded by > human %20
        director / manager > human 1 %20 · notable work > album %20 · former member > human %25
        opening act for > band %15 · lead singer > human 1 %40
    """,
    "record label": """
        country > country 1 %100 · headquarters location > city 1 %80 · inception > @year:1920:2015 1 %90
        founded by > human %60 · parent organization > record label 1 %30 · genre > genre %60 · owned by > company 1 %30
        president > human 1 %30 · distributed by > company 1 %30
    """,
    "sports team": """
        league > sports league 1 %100 ; what does {} compete in ; who competes in {}
        headquarters location > city 1 %100 ; where is {} based
        home venue > building 1 %80 ; where does {} play its home games
        head coach > human 1 %80 ; who coaches {}
        country > country 1 %100 · inception > @year:1870:2015 1 %80 · owned by > human 1 %40 · captain > human 1 %40
        rival > sports team ~ %30 · number of wins > @num:0:40 1 %50 · award received > award %20
        sponsor > company %30
        mascot > species 1 %20 · training ground > building 1 %30 · reserve team > sports team 1 %10
        general manager > human 1 %30 · top scorer > human 1 %30 · president > human 1 %20
    """,
    "sports league": """
        country > country 1 %100 · organizer > organization 1 %60 · inception > @year:1880:2010 1 %80
        number of participants > @num:8:30 1 %80 · headquarters location > city 1 %60 · chairperson > human 1 %50
        sponsor > company %50 · champion > sports team 1 %70 · broadcast by > company %50
    """,
    "river": """
        country > country %100 ; which nations does {} flow through
        length > @num:20:4500 1 %90 ; how long is {}
        mouth of the watercourse > river 1 %40 ; where does {} end ; what flows into {}
        origin of the watercourse > mountain 1 %40 ; where does {} rise
        discharge > @num:5:20000 1 %50 · located in the administrative territorial entity > region %50
        lake on watercourse > lake %20 · named after > human 1 %10 · crossed by > building %15 · dam > building %10
    """,
    "lake": """
        maximum depth > @num:3:1600 1 %60 ; how deep is {}
        basin country > country %100 · located in the administrative territorial entity > region 1 %70
        area > @num:1:30000 1 %90 · elevation above sea level > @num:1:4000 1 %70 · outflow > river 1 %40
        inflows > river %30 · named after > human 1 %10 · endemic species > species %20
    """,
    "mountain": """
        elevation above sea level > @num:300:8800 1 %100 ; how high is {}
        first ascent > @year:1780:2010 1 %40 ; when was {} first climbed
        first climbed by > human 1 %20 ; who was the first on top of {}
        country > country %100 · located in the administrative territorial entity > region 1 %70
        parent peak > mountain 1 %40 · topographic prominence > @num:50:8000 1 %60 · named after > human 1 %15
        mountain hut > building %10 · nearest city > city 1 %40
    """,
    "award": """
        conferred by > organization 1 %90 ; who gives out {}
        prize money > @num:1000:2000000 1 %50 ; how much is {} worth
        country > country 1 %80 · inception > @year:1850:2015 1 %80 · named after > human 1 %40
        subclass of > award 1 %20 · field of work > academic discipline %40 · sponsor > company %20
        presenter > human %20 · first recipient > human 1 %30 · jury member > human %20
    """,
    "language": """
        number of speakers > @num:2000:900000000 1 %90 ; how many people speak {}
        language family > language 1 %50 · country > country %90 · indigenous to > region %40
        influenced by > language %20 · dialect of > language 1 %15 · language regulatory body > organization 1 %30
        described by source > book %15
    """,
    "genre": """
        inception > @year:1500:2000 1 %40 ; when did {} emerge
        subclass of > genre 1 %50 · country of origin > country 1 %40 · influenced by > genre %30
        characteristic instrument > musical instrument %30 · fusion of > genre %15
    """,
    "occupation": """
        field of this occupation > academic discipline 1 %70 · subclass of > occupation 1 %30
        professional association > organization %30 · patron saint > human 1 %15
    """,
    "academic discipline": """
        practiced by > occupation %50 ; who works in {}
        subclass of > academic discipline 1 %50 · part of > academic discipline 1 %30 · founded by > human 1 %15
        founding text > book 1 %20 · flagship journal > periodical 1 %30
    """,
    "industry": """
        subclass of > industry 1 %40 · product or material produced > chemical compound %50 · part of > industry 1 %25
        regulated by > organization %30
    """,
    "political party": """
        inception > @year:1830:2020 1 %90 ; when was {} founded
        founded by > human %50 ; who started {}
        chairperson > human 1 %70 ; who leads {}
        country > country 1 %100 · headquarters location > city 1 %80 · number of members > @num:200:4000000 1 %50
        youth wing > organization 1 %30 · member of > organization %30 · official newspaper > periodical 1 %20
        affiliation > political party %20 · parliamentary group > organization 1 %30
        split from > political party 1 %15
        merged into > political party 1 %10
    """,
    "ship": """
        manufacturer > company 1 %90 ; who built {}
        country of registry > country 1 %90 ; which flag does {} sail under
        service entry > @year:1870:2022 1 %90 ; when was {} commissioned
        operator > company 1 %70 · service retirement > @year+service entry:5:45 1 %40 · length > @num:20:400 1 %70
        home port > city 1 %60 · named after > human 1 %20 · significant event > event %20 · sister ship > ship ~ %20
        gross tonnage > @num:200:230000 1 %40 · crew member > human %20 · made from material > chemical compound %15
        vessel class > ship 1 %20 · location of final assembly > city 1 %20 · captain > human 1 %20
    """,
    "building": """
        architect > human %70 ; who designed {} ; what did {} design
        height > @num:8:830 1 %60 ; how tall is {}
        date of official opening > @year:1100:2022 1 %80 ; when did {} open
        maximum capacity > @num:50:100000 1 %30 ; how many people fit in {}
        located in the administrative territorial entity > city 1 %100 · country > country 1 %100
        floors above ground > @num:1:160 1 %40 · owned by > company 1 %40 · occupant > company %20
        structural engineer > human 1 %20 · main building contractor > company 1 %20 · named after > human 1 %20
        commissioned by > human 1 %15 · adjacent building > building ~ %15 · significant event > event %10
        operator > company 1 %20 · architectural style > genre 1 %40 · interior designer > human 1 %10
        landscape architect > human 1 %8 · replaces > building 1 v %5
    """,
    "software": """
        developer > company %100 ; who made {} ; what did {} make
        publication date > @year:1975:2023 1 %90 ; when did {} come out
        programmed in > software %50 · operating system > software %40 · platform > software %20
        user interface language > language %30 · based on > software 1 %15 · followed by > software 1 %10
        publisher > company 1 %30 · maintained by > company 1 %30 · designed by > human %30 · used by > company %20
        depends on software > software v %20 · influenced by > software %20 · lead developer > human 1 %30
        fork of > software 1 %8 · successor > software 1 %8
    """,
    "disease": """
        drug or therapy used for treatment > chemical compound %70 ; how is {} treated
        transmitted by > species %20 ; what spreads {}
        discoverer or inventor > human 1 %30 ; who found {}
        time of discovery or invention > @year:1700:2020 1 %40 ; when was {} first described
        health specialty > academic discipline 1 %80 · named after > human 1 %20 · possible complication > disease %30
        risk factor > disease %20 · caused by > species 1 %30 · vaccine > chemical compound 1 %15
        afflicts > species v %20 · endemic in > country %20
    """,
    "chemical compound": """
        discoverer or inventor > human 1 %40 ; who found {}
        time of discovery or invention > @year:1600:2020 1 %40 ; when was {} first made
        mass > @num:10:900 1 %90 · boiling point > @num:20:3000 1 %50 · melting point > @num:10:2500 1 %50
        found in taxon > species %30 · physically interacts with > chemical compound v %20 · manufacturer > company %20
        subclass of > chemical compound 1 %20 · named after > human 1 %10 · isomer of > chemical compound ~ %10
        natural product of taxon > species %15
    """,
    "species": """
        endemic to > country %50 ; where does {} live in the wild
        main food source > species %30 ; what does {} eat ; what eats {}
        parent taxon > species 1 %80 · mass > @num:1:150000 1 %40 · life expectancy > @num:1:200 1 %40
        taxon author > human 1 %30 · year of taxon name publication > @year:1758:2020 1 %40 · host > species %10
        length > @num:1:3000 1 %30 · pollinated by > species %10 · native to > region %30
    """,
    "painting": """
        creator > human 1 %100 ; who painted {} ; what did {} paint
        inception > @year:1400:2020 1 %90 ; when was {} painted
        collection > building 1 %80 ; which museum holds {}
        depicts > human v %40 ; who is shown in {}
        movement > genre 1 %70 · made from material > chemical compound %50 · height > @num:10:800 1 %60
        width > @num:10:900 1 %60 · location > city 1 %50 · genre > genre %40 · owned by > human 1 %20
        commissioned by > human 1 %20 · country of origin > country 1 %50 · exhibition history > event %15
        main subject > event 1 %10 · location of creation > city 1 %30 · restorer > human 1 %10
        pendant of > painting 1 ~ %6 · narrative location > city %10
    """,
    "event": """
        point in time > @date:1800:2023 1 %100 ; when did {} happen
        location > city 1 %90 ; where did {} take place
        organizer > organization 1 %50 ; who put on {}
        winner > human 1 %40 ; who won {}
        country > country 1 %90 · participant > human %60 · number of participants > @num:10:90000 1 %40
        part of > event 1 %20 · followed by > event 1 %20 · sponsor > company %20
        number of deaths > @num:1:50000 1 %15
        venue > building 1 %30 · candidate > human %15 · successful candidate > human 1 %10 · belligerent > country %15
        significant person > human %15 · commanded by > human %10 · referee > human 1 %10
        keynote speaker > human %10 · headliner > band %10 · mascot > species 1 %5 · broadcast by > company %10
    """,
    "musical instrument": """
        subclass of > musical instrument 1 %50 · country of origin > country 1 %60 · manufacturer > company %60
        discoverer or inventor > human 1 %30 · time of discovery or invention > @year:1500:1990 1 %50
        made from material > chemical compound %40 · related instrument > musical instrument ~ %30
        notable player > human %20
    """,
}
