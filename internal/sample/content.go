package sample

// The articles below were written for this sample by the project; none is
// copied from a web page. Each body uses a small markup (see render.go):
// "## " heading, "- " list item, "| a | b |" table row (first row is the
// header), ``` code fence, blank line between paragraphs, [text](url) links
// and **bold**.
//
// Some articles are re-encoded into legacy charsets; their text (and their
// language's boilerplate) must stay inside that charset, which Generate
// checks by failing on any character the encoder cannot represent.

type article struct {
	key   string
	lang  string // ISO 639-3, the language the text was written in
	title string
	date  string // the date line shown under the title
	body  string
}

var articles = []article{
	{
		key: "en-sourdough", lang: "eng",
		title: "Keeping a sourdough starter alive through a hot summer",
		date:  "Published 14 June 2026 by Mara Linden",
		body: `A starter that behaves perfectly in spring can turn sluggish and sour once the kitchen stays above twenty-eight degrees. Warm dough ferments faster, the yeast runs out of food within hours, and the bacteria keep producing acid long after the bubbles have stopped rising. The result is a jar that smells like nail polish remover by lunchtime and bread that spreads flat on the tray.

The fix is not complicated, but it asks you to think about timing instead of recipes. Feed the starter with cooler water, straight from the fridge, and use a stiffer mix with less water than flour. A firm starter ferments more slowly, which buys you a few extra hours before it peaks.

## A summer feeding routine

- Keep back only one spoonful of the old starter before each feed.
- Feed at a ratio of one part starter to five parts flour and three parts cold water.
- Leave the jar on the counter for two hours, then move it to the fridge.
- Take it out the evening before you bake and feed it once more.

## When something goes wrong

If a grey liquid collects on top, the starter is hungry rather than dead. Pour the liquid away, feed it twice in one day, and watch for a steady rise. A pink or orange tint is different: that means unwanted bacteria have taken hold, and it is safer to start again. Our [starter troubleshooting table](/guides/starter-problems) lists the other common signs and what each one means.`,
	},
	{
		key: "en-bike", lang: "eng",
		title: "A ten-minute bicycle check before every ride",
		date:  "Updated 2 July 2026",
		body: `Most roadside breakdowns announce themselves days in advance. A tyre that loses a little pressure overnight, a chain that squeaks on the climb to work, a brake lever that travels a bit further than it used to: each is easy to ignore, and each is easy to fix at home before it leaves you walking. This check takes about ten minutes and needs nothing more than a pump, a rag and a set of hex keys.

Start at the front wheel and work your way back, so that you never skip a part because you got distracted. Spin each wheel and watch the gap between the rim and the brake pads; a wobble you can see is a wobble you will feel at speed.

## The checklist

- Squeeze each tyre and pump it to the pressure printed on the sidewall.
- Pull both brake levers hard: they should stop well before touching the handlebar.
- Lift the rear wheel, turn the pedals and listen to the chain through every gear.
- Check that the quick-release levers or axle nuts are tight.
- Wipe the chain with the rag and add one drop of oil per link.

## Why bother

Regular checks are cheaper than repairs. A chain replaced in time saves the cassette, and brake pads swapped before they wear through save the rims. If anything on the list feels wrong and you are not sure how to adjust it, the volunteers at the [community workshop](https://repair.example.org/workshop) will show you on Thursday evenings.`,
	},
	{
		key: "en-tidepools", lang: "eng",
		title: "What lives in a tide pool at low water",
		date:  "Field notes, 21 May 2026",
		body: `Twice a day the sea pulls back from the rocky shore and leaves behind hundreds of small basins of trapped water. For a few hours each pool becomes a separate world, with its own temperature, its own saltiness and its own cast of animals that must survive until the tide returns. Visiting them is one of the best free lessons in biology that a coast can offer.

The trick is to move slowly and to look twice. Many residents are camouflaged, and the first glance usually shows only weed and stone. Crouch at the edge, keep your shadow off the water, and wait a minute for the crabs and small fish to forget that you are there.

## Common residents

| Animal | Where to look | How to spot it |
| Beadlet anemone | Rock walls just below the surface | A red blob that opens into a ring of tentacles underwater |
| Shore crab | Under loose stones and in cracks | Sideways movement when a stone is lifted |
| Common limpet | Exposed rock faces | A cone-shaped shell clamped tightly to the rock |
| Blenny | Shaded pool bottoms | A small fish resting on its fins, watching you |

## Leave it as you found it

Turn stones back the way they were, because the animals underneath depend on the shade and moisture. Never carry creatures home in a bucket; most will die within a day. Check the local tide tables before you go, and keep an eye on the water: the sea comes back faster than most visitors expect.`,
	},
	{
		key: "de-garten", lang: "deu",
		title: "Gemeinschaftsgarten im Hinterhof: Was wir im ersten Jahr gelernt haben",
		date:  "Veröffentlicht am 3. Juni 2026",
		body: `Als wir im vergangenen Frühjahr die ersten Hochbeete im Hinterhof aufgestellt haben, wusste kaum jemand im Haus, wie man Tomaten zieht. Heute kümmern sich zwölf Nachbarn aus vier Stockwerken gemeinsam um Gemüse, Kräuter und einen kleinen Blühstreifen für Insekten. Der Weg dorthin war nicht immer einfach, aber er hat das Zusammenleben im Haus spürbar verändert.

Das größte Problem war nicht das Wetter, sondern die Absprache. Wer gießt am Wochenende? Wer darf die ersten Erdbeeren ernten? Nach einigen Missverständnissen haben wir einen einfachen Plan an die Tür zum Hof gehängt, in den sich jeder für eine Woche eintragen kann. Seitdem gibt es deutlich weniger Streit und deutlich mehr Ernte.

## Unsere wichtigsten Regeln

- Jede Person übernimmt mindestens eine Gießwoche pro Monat.
- Geerntet wird nur, was reif ist, und immer für alle.
- Werkzeug kommt nach der Arbeit zurück in den Schuppen.
- Neue Pflanzen werden vorher im Gruppenchat besprochen.

## Was wir nächstes Jahr anders machen

Wir wollen weniger Zucchini pflanzen, denn drei Pflanzen haben für das ganze Haus gereicht und noch die Nachbarn im Vorderhaus versorgt. Außerdem planen wir eine Regentonne, damit wir im Sommer nicht mehr so viel Leitungswasser verbrauchen. Wer mitmachen möchte, findet unseren Gießplan und die Kontaktdaten auf der Seite [Mitmachen](/mitmachen). Vorkenntnisse braucht niemand, nur ein wenig Geduld und Freude an der Arbeit im Freien.`,
	},
	{
		key: "de-nachtzug", lang: "deu",
		title: "Warum Nachtzüge wieder gefragt sind",
		date:  "Stand: 18. Juni 2026",
		body: `Vor zehn Jahren schienen Nachtzüge in Europa fast verschwunden zu sein. Viele Verbindungen wurden eingestellt, weil sie sich angeblich nicht mehr rechneten und Billigflüge schneller und günstiger waren. Inzwischen hat sich das Bild gewandelt: Auf mehreren Strecken sind die Schlafwagen an Wochenenden wochenlang im Voraus ausgebucht, und neue Linien werden angekündigt.

Ein Grund ist die Zeit. Wer abends einsteigt und morgens im Stadtzentrum ankommt, spart sich eine Hotelnacht und den Weg zum Flughafen. Dazu kommt, dass viele Reisende bewusst auf Flüge verzichten möchten. Der Nachtzug bietet dafür eine bequeme Alternative, die sich eher wie ein Teil des Urlaubs anfühlt als wie eine lästige Anreise.

## Worauf man bei der Buchung achten sollte

- Liegewagen sind günstiger, Schlafwagen bieten mehr Ruhe und ein eigenes Waschbecken.
- Frühbucher zahlen oft deutlich weniger als Kurzentschlossene.
- Fahrräder müssen auf vielen Strecken gesondert reserviert werden.
- Ein kleines Handtuch und Ohrstöpsel machen die Nacht angenehmer.

## Offene Fragen

Noch ist nicht alles gut. Es fehlen Wagen, Verspätungen sind häufig, und die Buchung über Landesgrenzen hinweg bleibt kompliziert. Fachleute fordern deshalb gemeinsame Regeln für Fahrgastrechte und eine zentrale Plattform für Fahrkarten. Ob das gelingt, wird darüber entscheiden, wie viele Menschen den Zug auch langfristig wählen. Eine Übersicht aller aktuellen Verbindungen finden Sie in unserer [Streckenkarte](/karte).`,
	},
	{
		key: "fr-atelier", lang: "fra",
		title: "Réparer plutôt que jeter : l’atelier du samedi",
		date:  "Publié le 6 juin 2026",
		body: `Chaque samedi matin, la salle paroissiale de la rue des Tanneurs se transforme en atelier de réparation. On y croise une grille-pain qui ne chauffe plus, un vélo d’enfant au dérailleur tordu, une lampe de chevet héritée d’une grand-mère. Les bénévoles ne promettent rien, mais ils réussissent à remettre en marche près de deux objets sur trois.

L’idée est simple : plutôt que de racheter un appareil neuf à quarante ou cinquante €, on apprend à comprendre pourquoi il est tombé en panne. « La plupart des pannes sont bêtes, un fil dessoudé ou un fusible grillé », explique Odile, électricienne à la retraite et pilier de l’atelier depuis ses débuts. Le café est offert, les pièces détachées sont vendues à prix coûtant.

## Comment ça se passe

- On arrive avec son objet, et si possible avec sa notice.
- Un bénévole note la panne sur une fiche et cherche la cause avec vous.
- On répare ensemble : l’objectif est que vous sachiez refaire le geste.
- Si la réparation échoue, on vous aide à trier les pièces pour le recyclage.

## Un bilan encourageant

En un an, l’atelier a évité la poubelle à plus de six cents objets, soit presque une tonne de déchets. Au-delà des chiffres, c’est surtout une œuvre collective et un lieu de rencontre où le savoir-faire circule entre générations. Les prochaines dates et la liste du matériel à apporter sont indiquées sur la page [Agenda](/agenda). Les volontaires qui savent coudre ou souder sont toujours les bienvenus, tout comme ceux qui préfèrent s’occuper du café et de l’accueil.`,
	},
	{
		key: "fr-rando", lang: "fra",
		title: "Petit guide de la randonnée en moyenne montagne",
		date:  "Mis à jour le 29 juin 2026",
		body: `La moyenne montagne attire de plus en plus de marcheurs qui cherchent de l’air frais sans affronter les glaciers. Les sentiers y sont souvent bien balisés, les dénivelés raisonnables et les refuges accueillants. Pourtant, chaque été, les secours interviennent pour des randonneurs partis trop tard, mal chaussés ou sans eau. Quelques habitudes simples suffisent à éviter la plupart de ces mauvaises surprises.

Avant de partir, consultez la météo locale et non celle de la ville voisine, car un orage peut éclater en altitude alors que la vallée reste ensoleillée. Prévoyez de partir tôt, pour marcher pendant les heures les plus fraîches et redescendre avant les averses de l’après-midi.

## Dans le sac

- Deux litres d’eau par personne, même pour une sortie courte.
- Une veste imperméable et une couche chaude, quelle que soit la saison.
- Une carte papier, car le téléphone peut perdre le réseau ou la batterie.
- Une petite trousse de secours avec pansements et couverture de survie.

## Sur le sentier

Gardez un rythme qui vous permet de parler sans être essoufflé. Faites une pause toutes les heures pour boire et manger un peu. Si le temps se gâte ou si un membre du groupe fatigue, n’hésitez pas à faire demi-tour : la montagne sera toujours là la semaine suivante. Retrouvez nos itinéraires conseillés sur la page [Itinéraires](/itineraires).`,
	},
	{
		key: "es-biblioteca", lang: "spa",
		title: "Cómo organizar una biblioteca de barrio",
		date:  "Publicado el 9 de junio de 2026",
		body: `¿Quién no tiene en casa una caja de libros que ya nadie lee? En nuestro barrio decidimos juntarlas todas y abrir una pequeña biblioteca en el antiguo local de la asociación de vecinos. Empezamos con doscientos volúmenes donados y hoy superamos los tres mil, desde novelas policiacas hasta manuales de cocina y cuentos infantiles en varios idiomas.

Lo más difícil no fue reunir los libros, sino mantener el orden. Al principio cualquiera podía llevarse lo que quisiera y devolverlo cuando le apeteciera, y en pocos meses las estanterías estaban medio vacías. Ahora usamos un cuaderno de préstamos muy sencillo y un sello con la fecha de devolución. ¡Funciona mejor de lo que esperábamos!

## Consejos para empezar

- Buscad un local con buena luz y un horario fijo, aunque sean solo dos tardes por semana.
- Clasificad los libros por temas grandes antes de pensar en el orden alfabético.
- Pedid a cada lector un nombre y un teléfono, nada más.
- Organizad una lectura en voz alta al mes para atraer a las familias.

## Lo que hemos aprendido

Una biblioteca de barrio es mucho más que un lugar para pedir libros prestados. Es un punto de encuentro para personas mayores que viven solas, un sitio tranquilo para que los niños hagan los deberes y una excusa para conocer a los vecinos. Si queréis montar algo parecido, en la sección [Recursos](/recursos) compartimos nuestras plantillas y el reglamento que usamos.`,
	},
	{
		key: "es-mercado", lang: "spa",
		title: "El mercado de abastos cambia de horario en verano",
		date:  "Actualizado el 1 de julio de 2026",
		body: `A partir del lunes, el mercado municipal abrirá sus puertas a las siete de la mañana y cerrará a las dos y media de la tarde durante julio y agosto. Los comerciantes llevaban años pidiendo este cambio, porque con el calor de mediodía apenas entraban clientes y la fruta y el pescado se estropeaban antes de tiempo.

La asociación de placeros explica que la mayoría de los compradores ya acudía temprano, sobre todo las personas mayores y quienes trabajan en la hostelería del centro. Con el nuevo horario, los puestos podrán recibir la mercancía más fresca y cerrar antes de las horas de mayor temperatura. Por las tardes, el edificio se usará para talleres de cocina y actividades para niños.

## Qué cambia para los clientes

- El aparcamiento subterráneo abrirá media hora antes que el mercado.
- Los pedidos a domicilio se podrán hacer por teléfono hasta las doce.
- Los sábados se mantiene el horario habitual, hasta las tres de la tarde.
- La cafetería del primer piso seguirá abierta hasta las cinco.

## Opiniones divididas

No todos están contentos. Algunos vecinos que trabajan por la mañana se quejan de que ya no podrán hacer la compra entre semana. El ayuntamiento ha prometido estudiar una apertura especial los jueves por la tarde si la demanda lo justifica. Toda la información sobre puestos y horarios está en la [guía del mercado](/guia-mercado).`,
	},
	{
		key: "pt-manjericao", lang: "por",
		title: "Como cultivar manjericão na varanda",
		date:  "Publicado em 11 de junho de 2026",
		body: `O manjericão é uma das ervas mais fáceis de cultivar em casa, desde que receba bastante sol e água na medida certa. Numa varanda virada a sul, um único vaso pode fornecer folhas frescas para o molho de tomate, para as saladas e até para um pesto caseiro durante todo o verão. Não é preciso jardim nem experiência.

O erro mais comum é regar demais. As raízes do manjericão não gostam de ficar encharcadas, por isso o vaso deve ter furos no fundo e uma camada de pedrinhas para drenar a água. Regue de manhã cedo, apenas quando a terra estiver seca ao toque, e evite molhar as folhas nas horas de maior calor.

## Passo a passo

- Escolha um vaso com pelo menos vinte centímetros de profundidade.
- Use terra leve, misturada com um pouco de composto orgânico.
- Semeie três ou quatro sementes e cubra com meio centímetro de terra.
- Quando as plantas tiverem seis folhas, corte as pontas para que ramifiquem.

## Colheita e conservação

Colha sempre as folhas de cima, logo acima de um par de folhas novas, e nunca retire mais de um terço da planta de uma vez. Se aparecerem flores, corte-as: a planta gasta energia nelas e as folhas ficam mais amargas. Para guardar o excesso, pique as folhas e congele-as em cubos de azeite. Mais dicas sobre ervas aromáticas estão na nossa [horta urbana](/horta-urbana).`,
	},
	{
		key: "it-caffe", lang: "ita",
		title: "Il caffè a casa: moka, dosi e pazienza",
		date:  "Pubblicato il 12 giugno 2026",
		body: `In molte case italiane la giornata comincia con il borbottio della moka sul fornello. Eppure, nonostante la sua semplicità, la caffettiera nasconde qualche segreto. Basta una macinatura troppo fine o una fiamma troppo alta perché il caffè diventi amaro e bruciato, e la colpa ricada ingiustamente sulla miscela.

Il primo consiglio è di riempire la caldaia d'acqua fino alla valvola, senza superarla, e di usare acqua fresca ogni volta. Il filtro va riempito di caffè senza pressarlo: la polvere deve restare soffice, così l'acqua può attraversarla in modo uniforme. Poi si avvita bene la parte superiore e si mette la moka sul fuoco più piccolo.

## Gli errori più comuni

- Lavare la moka con il detersivo, che lascia un sapore sgradevole.
- Tenere la fiamma alta per fare prima.
- Lasciare il caffè sul fuoco dopo che ha finito di salire.
- Usare caffè macinato per espresso, troppo fine per la moka.

## Una questione di pazienza

Quando il caffè comincia a uscire, conviene abbassare ancora la fiamma o spegnerla del tutto: il calore residuo basta a completare l'estrazione. Appena si sente il classico gorgoglio, la moka va tolta dal fornello. Un ultimo trucco è mescolare il caffè nella parte superiore prima di versarlo, perché il primo e l'ultimo caffè hanno gusti diversi. Altri consigli si trovano nella nostra [guida alle miscele](/guida-miscele).`,
	},
	{
		key: "it-laghi", lang: "ita",
		title: "Una gita in treno tra i laghi del nord",
		date:  "Pubblicato il 25 giugno 2026",
		body: `Non serve l'automobile per scoprire i laghi del nord. Con un biglietto regionale e un po' di organizzazione si possono visitare in una sola giornata borghi affacciati sull'acqua, ville con giardini e piccoli porti dove partono i battelli. Il treno offre anche un vantaggio spesso dimenticato: dal finestrino il paesaggio scorre senza che nessuno debba guardare la strada.

Conviene partire presto, quando i vagoni sono ancora tranquilli e la luce sul lago è più morbida. Molte stazioni si trovano a pochi minuti a piedi dal lungolago, e da lì i battelli collegano le sponde con corse frequenti durante l'estate. Un biglietto giornaliero per la navigazione permette di scendere e risalire quante volte si vuole.

## Un itinerario possibile

- Arrivo in treno alla prima stazione sul lago entro le nove.
- Passeggiata nel centro storico e colazione al porto.
- Battello verso la sponda opposta e visita di un giardino botanico.
- Pranzo in una trattoria con vista e ritorno in treno nel tardo pomeriggio.

## Consigli pratici

Nei fine settimana di luglio i battelli si riempiono in fretta, quindi è meglio evitare le ore centrali. Portate acqua, cappello e una giacca leggera, perché sul lago il vento può rinfrescare all'improvviso. Gli orari aggiornati dei treni e dei battelli sono raccolti nella pagina [Come arrivare](/come-arrivare).`,
	},
	{
		key: "pl-ogorki", lang: "pol",
		title: "Ogórki kiszone krok po kroku",
		date:  "Opublikowano 15 czerwca 2026",
		body: `Ogórki kiszone to jeden z najprostszych domowych przetworów, a zarazem taki, który potrafi sprawić najwięcej radości. Wystarczą świeże ogórki, sól, woda i kilka przypraw, żeby po tygodniu mieć w spiżarni słoiki pełne chrupiących, lekko kwaśnych warzyw. Nie potrzeba cukru ani octu, bo całą pracę wykonują naturalne bakterie.

Najważniejsze jest wybranie odpowiednich ogórków. Powinny być małe, jędrne i bez żółtych przebarwień, najlepiej zerwane dzień wcześniej. Przed włożeniem do słoika warto je na godzinę zanurzyć w zimnej wodzie, dzięki czemu po ukiszeniu pozostaną twarde i chrupkie.

## Czego potrzebujesz

- Dwa kilogramy małych ogórków gruntowych.
- Jedną łyżkę soli kamiennej na każdy litr wody.
- Kilka ząbków czosnku, koper z baldachami i liście chrzanu.
- Czyste słoiki z zakrętkami, wyparzone wrzątkiem.

## Jak to zrobić

Ogórki układamy w słoikach pionowo i ciasno, przekładając je czosnkiem i koprem. Zalewamy je ostudzoną solanką tak, aby całkowicie je przykryła, a na wierzchu kładziemy liść chrzanu. Słoiki zakręcamy i odstawiamy w ciepłe miejsce na trzy dni, a potem przenosimy do chłodnej piwnicy. Po tygodniu ogórki są małosolne, po miesiącu w pełni ukiszone. Więcej przepisów na przetwory znajdziesz w dziale [Spiżarnia](/spizarnia).`,
	},
	{
		key: "nl-regen", lang: "nld",
		title: "Fietsen in de regen: zo blijf je droog",
		date:  "Gepubliceerd op 16 juni 2026",
		body: `Wie in Nederland dagelijks fietst, weet dat regen geen reden is om thuis te blijven. Toch komen veel mensen na een bui doorweekt op hun werk of school aan. Dat is meestal niet nodig. Met de juiste kleding en een paar kleine aanpassingen aan de fiets blijf je ook bij slecht weer redelijk droog.

Begin bij de fiets zelf. Spatborden zijn het belangrijkst, want het meeste water komt niet van boven maar van het voorwiel en het achterwiel. Een lang voorspatbord met een flapje aan de onderkant houdt je schoenen en broekspijpen droog. Controleer ook of je verlichting het goed doet, want bij regen zien automobilisten fietsers later.

## Kleding die werkt

- Een regenjas met een capuchon die onder je helm of pet past.
- Een regenbroek die je snel over je gewone broek kunt trekken.
- Overschoenen of waterdichte schoenen voor lange ritten.
- Een reservesokken in je tas, voor als het toch misgaat.

## Slim plannen

Kijk voor vertrek op een buienradar. Vaak trekt een bui binnen tien minuten over, en wie even wacht, fietst daarna droog naar zijn bestemming. Rem bij nat weer eerder en voorzichtiger, vooral op tramrails, putdeksels en witte strepen, want die worden spiegelglad. Meer tips over veilig fietsen vind je op onze pagina [Fietsveiligheid](/fietsveiligheid).`,
	},
	{
		key: "nl-warmtepomp", lang: "nld",
		title: "Hoe werkt een warmtepomp eigenlijk?",
		date:  "Gepubliceerd op 24 juni 2026",
		body: `Steeds meer huishoudens vervangen hun cv-ketel door een warmtepomp. Het apparaat wordt vaak geprezen als zuinig en duurzaam, maar weinig mensen weten precies hoe het werkt. Het principe is eigenlijk hetzelfde als dat van een koelkast, alleen dan omgekeerd: in plaats van warmte uit een kastje te halen, haalt een warmtepomp warmte uit de buitenlucht, de bodem of het grondwater en brengt die naar binnen.

Dat lijkt vreemd, want buiten is het in de winter koud. Toch zit er ook in koude lucht nog warmte. Een vloeistof met een heel laag kookpunt neemt die warmte op en verdampt. Een compressor drukt de damp samen, waardoor de temperatuur flink stijgt. Die warmte gaat naar het water van de verwarming, waarna de vloeistof weer afkoelt en de kringloop opnieuw begint.

## Soorten warmtepompen

| Soort | Warmtebron | Geschikt voor |
| Lucht-water | Buitenlucht | De meeste bestaande woningen |
| Bodem-water | Bodem via een bron | Nieuwbouw met ruimte voor boringen |
| Hybride | Buitenlucht plus ketel | Oudere huizen met minder isolatie |

## Waar moet je op letten?

Een warmtepomp werkt het best in een goed geïsoleerd huis met vloerverwarming of grote radiatoren, omdat hij op een lagere temperatuur verwarmt dan een ketel. Laat daarom eerst een adviseur kijken naar je isolatie. Meer informatie staat op de pagina [Subsidies](/subsidies).`,
	},
	{
		key: "vi-caphe", lang: "vie",
		title: "Cách pha cà phê phin đúng vị tại nhà",
		date:  "Đăng ngày 17 tháng 6 năm 2026",
		body: `Với nhiều người Việt, một ly cà phê phin buổi sáng không chỉ là thức uống mà còn là một thói quen gắn với nhịp sống hằng ngày. Tiếng nước nhỏ giọt chậm rãi qua chiếc phin nhôm, mùi thơm lan khắp căn bếp, tất cả tạo nên cảm giác thư thái trước khi bắt đầu công việc. Tuy vậy, không phải ai cũng pha được một ly cà phê đậm đà mà không bị đắng gắt.

Điều quan trọng đầu tiên là chọn cà phê xay vừa, không quá mịn cũng không quá thô. Nếu bột quá mịn, nước sẽ chảy rất chậm và cà phê bị chiết quá lâu. Nếu bột quá thô, nước chảy nhanh và ly cà phê sẽ nhạt. Nên dùng khoảng hai mươi lăm gam cà phê cho một phin cỡ vừa.

## Các bước pha

- Tráng phin và ly bằng nước sôi để giữ nhiệt.
- Cho cà phê vào phin, lắc nhẹ cho mặt bột phẳng rồi đặt nắp gài lên.
- Rót một ít nước sôi để ủ bột trong khoảng ba mươi giây.
- Rót tiếp nước đến gần đầy phin, đậy nắp và chờ cà phê nhỏ giọt.

## Một vài lưu ý

Nước dùng để pha nên ở khoảng chín mươi hai đến chín mươi sáu độ, không nên dùng nước vừa sôi sùng sục. Nếu thích uống cà phê sữa, hãy cho sữa đặc vào ly trước rồi mới đặt phin lên. Bạn có thể tìm thêm công thức pha chế khác trong mục [Đồ uống](/do-uong).`,
	},
	{
		key: "ru-palatka", lang: "rus",
		title: "Как выбрать палатку для первого похода",
		date:  "Опубликовано 19 июня 2026 года",
		body: `Палатка — это ваш дом в походе, и от её выбора во многом зависит, будет ли первая ночёвка на природе приятным приключением или испытанием. В магазинах глаза разбегаются: лёгкие модели для велосипедистов, огромные кемпинговые шатры, палатки для зимних экспедиций. Новичку легко растеряться и купить совсем не то, что нужно.

Прежде всего подумайте, куда и как часто вы собираетесь ходить. Для летних выходных в лесу у реки вполне хватит простой двухслойной палатки. Если же вы планируете горные маршруты, стоит обратить внимание на устойчивость к ветру и на качество дуг. Вес тоже важен: каждый лишний килограмм чувствуется уже к середине дня.

## На что смотреть при покупке

- Вместимость: берите палатку на одного человека больше, чем вас в группе.
- Водостойкость тента: не меньше трёх тысяч миллиметров водяного столба.
- Наличие тамбура, где можно оставить рюкзаки и обувь.
- Простота установки: попробуйте поставить палатку прямо в магазине.

## Перед первой поездкой

Обязательно поставьте палатку дома или во дворе, чтобы убедиться, что все колышки и оттяжки на месте. После похода её нужно хорошо просушить, иначе ткань может покрыться плесенью. С правильным уходом хорошая палатка прослужит много лет. Подробный список снаряжения вы найдёте в разделе [Снаряжение](/snaryazhenie).`,
	},
	{
		key: "ja-miso", lang: "jpn",
		title: "はじめての手作り味噌",
		date:  "2026年6月20日 公開",
		body: `味噌は日本の食卓に欠かせない調味料ですが、実は家庭でも意外と簡単に作ることができます。必要な材料は大豆、米こうじ、塩の三つだけです。冬の寒い時期に仕込むのが一般的ですが、涼しい場所があれば一年中いつでも始められます。自分で作った味噌は香りが豊かで、毎日のみそ汁がいっそう楽しみになります。

作り方のポイントは、大豆をしっかりと柔らかく煮ることです。指で軽くつぶせるくらいになるまで、三時間ほどかけてゆっくり煮ます。煮上がった大豆は熱いうちにつぶし、人肌まで冷ましてから、塩と混ぜておいたこうじと合わせます。

## 材料（約四キロ分）

- 大豆　一キロ
- 米こうじ　一キロ
- 塩　四百五十グラム
- 保存用の容器と重し

## 仕込みと熟成

よく混ぜた材料を、空気が入らないように丸めて容器に投げ入れます。表面を平らにして塩をふり、ラップでぴったりと覆ってから重しをのせます。あとは冷暗所で半年から一年ほど待つだけです。途中で一度、上下を返すように混ぜると、むらなく熟成します。表面に白いカビが出ても、その部分を取り除けば問題ありません。詳しい手順は[味噌づくりの記録](/miso-kiroku)でも紹介しています。`,
	},
	{
		key: "zh-fanqie", lang: "zho",
		title: "在家种植小番茄的五个要点",
		date:  "发布于 2026年6月22日",
		body: `小番茄是阳台种植中最受欢迎的蔬菜之一。它生长快、产量高，颜色鲜艳，摘下来就能直接吃。只要掌握几个基本要点，即使住在城市的公寓里，也能在夏天收获一盆又一盆酸甜可口的果实。下面是我们在三年阳台种植中总结出来的经验。

第一，阳光最重要。小番茄每天至少需要六个小时的直射阳光，所以最好放在朝南或朝西的阳台上。光照不足时，植株会长得又细又长，开花少，结出的果实也不甜。第二，选择足够大的花盆。一棵小番茄至少需要深度三十厘米的容器，底部一定要有排水孔。

## 五个要点

- 每天保证六小时以上的阳光。
- 使用疏松透气、富含有机质的土壤。
- 见干见湿，浇水要浇透，但不要积水。
- 植株长高后及时搭架，防止倒伏。
- 定期摘除多余的侧芽，让养分集中到果实。

## 收获与病虫害

当果实完全变红、用手轻轻一碰就能摘下时，就是最佳的采摘时间。夏季高温多雨，要注意通风，发现叶片发黄或有斑点时，应及时剪掉病叶。尽量不要使用化学农药，可以用稀释的肥皂水来对付蚜虫。更多阳台种菜的方法，请看我们的[阳台菜园](/yangtai-caiyuan)专栏。`,
	},
	{
		key: "id-listrik", lang: "ind",
		title: "Tips menghemat listrik di rumah",
		date:  "Diterbitkan 23 Juni 2026",
		body: `Tagihan listrik yang terus naik membuat banyak keluarga mulai mencari cara untuk lebih hemat. Kabar baiknya, sebagian besar penghematan bisa dilakukan tanpa mengeluarkan biaya besar. Cukup dengan mengubah beberapa kebiasaan sehari-hari, pemakaian listrik di rumah dapat berkurang cukup banyak dalam satu bulan.

Langkah pertama adalah mengenali peralatan yang paling boros. Pendingin ruangan, kulkas, pemanas air, dan setrika biasanya menyerap daya paling besar. Periksa label daya pada setiap alat, lalu catat berapa jam alat tersebut menyala setiap hari. Dari catatan sederhana ini, Anda akan tahu bagian mana yang perlu diperbaiki lebih dulu.

## Kebiasaan kecil yang berpengaruh

- Cabut pengisi daya dan peralatan yang tidak dipakai dari stopkontak.
- Atur pendingin ruangan pada suhu dua puluh lima derajat, bukan yang paling dingin.
- Ganti lampu lama dengan lampu LED yang lebih hemat.
- Jangan membuka pintu kulkas terlalu lama atau terlalu sering.
- Manfaatkan cahaya matahari di siang hari dan buka jendela untuk sirkulasi udara.

## Libatkan seluruh keluarga

Penghematan akan lebih berhasil jika semua anggota keluarga ikut serta. Ajak anak-anak mematikan lampu saat keluar kamar dan buat tantangan kecil untuk menurunkan tagihan bulan depan. Panduan lengkap menghitung pemakaian listrik dapat dibaca di halaman [Kalkulator Energi](/kalkulator-energi).`,
	},
	{
		key: "tr-vapur", lang: "tur",
		title: "İstanbul'da vapurla geçen bir gün",
		date:  "Yayınlanma tarihi: 26 Haziran 2026",
		body: `İstanbul'u tanımanın en güzel yollarından biri, şehrin iki yakasını birbirine bağlayan vapurlara binmektir. Sabahın erken saatlerinde iskeleye gelen yolcular, ellerinde çay bardaklarıyla martıları izlerken günün ilk ışıkları Boğaz'ın sularına yansır. Trafikte saatlerce beklemek yerine yirmi dakikalık bir vapur yolculuğu, şehre bambaşka bir gözle bakmayı sağlar.

Gün boyunca farklı hatları kullanarak birçok semti gezmek mümkündür. Kadıköy'den Karaköy'e geçip tarihi yarımadada yürüyüş yapabilir, öğleden sonra Üsküdar'a dönerek sahilde oturabilirsiniz. Akşamüstü ise Boğaz hattına binip kıyıdaki eski köşkleri ve balıkçı köylerini izlemek unutulmaz bir deneyim olur.

## Yolculuk için öneriler

- Şehir kartınızı önceden doldurun, iskelede uzun kuyruklar olabilir.
- Açık güverteye çıkmak için rüzgarlık veya hafif bir ceket alın.
- Simit ve çay vapur kültürünün vazgeçilmez bir parçasıdır.
- Hafta sonu Boğaz turları kalabalık olduğu için erken gidin.

## Küçük bir uyarı

Yaz aylarında vapurlar özellikle akşam saatlerinde çok dolu olabilir. Yaşlı yolculara ve çocuklu ailelere yer vermeyi unutmayın. Sefer saatleri mevsime göre değiştiği için yola çıkmadan önce güncel tarifeyi kontrol etmek faydalı olacaktır. Tüm hatların haritasını [Ulaşım Rehberi](/ulasim-rehberi) sayfamızda bulabilirsiniz.`,
	},
	{
		key: "ar-barmaja", lang: "ara",
		title: "كيف تبدأ في تعلم البرمجة من الصفر",
		date:  "نُشر في 27 يونيو 2026",
		body: `يعتقد كثير من الناس أن البرمجة مهارة صعبة لا يتقنها إلا المتخصصون في الرياضيات، لكن الحقيقة مختلفة تمامًا. البرمجة في جوهرها طريقة منظمة لحل المشكلات، ويمكن لأي شخص أن يتعلمها إذا خصص لها وقتًا قليلًا كل يوم وتحلى بالصبر. المهم هو أن تبدأ بخطوات صغيرة وواضحة بدل أن تحاول فهم كل شيء دفعة واحدة.

اختر لغة واحدة في البداية والتزم بها لعدة أشهر. لغة بايثون مثلًا مناسبة للمبتدئين لأن قواعدها بسيطة وقريبة من اللغة الطبيعية، كما أن مجتمعها كبير ويسهل العثور على إجابات للأسئلة الشائعة. لا تنتقل إلى لغة أخرى قبل أن تكتب بنفسك عدة برامج صغيرة تعمل.

## خطة مقترحة للأسابيع الأولى

- الأسبوع الأول: تثبيت الأدوات وكتابة أول برنامج يطبع رسالة على الشاشة.
- الأسبوع الثاني: المتغيرات والشروط والحلقات التكرارية.
- الأسبوع الثالث: الدوال وتقسيم البرنامج إلى أجزاء صغيرة.
- الأسبوع الرابع: مشروع صغير مثل آلة حاسبة أو قائمة مهام.

## مثال بسيط

` + "```" + `
for n in range(1, 6):
    print("مرحبا", n)
` + "```" + `

لا تخف من الأخطاء، فهي جزء طبيعي من التعلم. اقرأ رسالة الخطأ بهدوء وحاول أن تفهم سببها قبل أن تبحث عن الحل. يمكنك العثور على تمارين إضافية في صفحة [تمارين للمبتدئين](/tamarin).`,
	},
	{
		key: "it-bom", lang: "ita",
		title: "Come si legge l'etichetta dell'olio extravergine",
		date:  "Pubblicato il 28 giugno 2026",
		body: `Davanti allo scaffale dell'olio molti consumatori si sentono smarriti. Le bottiglie si somigliano tutte, i prezzi variano moltissimo e le scritte sull'etichetta sembrano pensate più per confondere che per informare. Eppure, con un po' di attenzione, l'etichetta racconta quasi tutto quello che serve sapere per scegliere bene.

La prima informazione da cercare è la categoria. Solo l'olio extravergine di oliva è ottenuto esclusivamente con metodi meccanici e ha superato un esame chimico e un assaggio ufficiale. La dicitura olio di oliva, senza altre parole, indica invece una miscela di oli raffinati e vergini, con meno profumo e meno sostanze benefiche.

## Cosa controllare

- L'origine delle olive, che deve essere indicata in modo chiaro.
- La data di raccolta o almeno il termine minimo di conservazione.
- Il colore della bottiglia: il vetro scuro protegge l'olio dalla luce.
- Eventuali marchi di denominazione protetta e il nome del frantoio.

## Conservazione a casa

Una volta aperta, la bottiglia va consumata entro pochi mesi e tenuta lontano dai fornelli e dalla finestra. Il calore e la luce sono i peggiori nemici dell'olio, che con il tempo perde aroma e diventa rancido. Un assaggio su un pezzo di pane aiuta a riconoscere le note fruttate, amare e piccanti tipiche di un buon prodotto. Approfondimenti e schede di assaggio sono nella sezione [Dispensa](/dispensa).`,
	},
}

// newsHome is the Vietnamese news front page: its main content is mostly
// link text, with plain ASCII slug URLs, the case where extractors tend to
// drop everything as navigation.
var newsHome = struct {
	title    string
	sections []newsSection
}{
	title: "Tin tức hôm nay",
	sections: []newsSection{
		{"Thời sự", []newsLink{
			{"/thoi-su/thanh-pho-mo-them-ba-tuyen-xe-buyt-dien.html", "Thành phố mở thêm ba tuyến xe buýt điện nối trung tâm với các khu dân cư mới"},
			{"/thoi-su/mua-lon-keo-dai-nhieu-tuyen-duong-ngap-sau.html", "Mưa lớn kéo dài, nhiều tuyến đường ở khu vực phía đông ngập sâu vào giờ tan tầm"},
			{"/thoi-su/hoc-sinh-ca-nuoc-buoc-vao-ky-nghi-he.html", "Học sinh cả nước bước vào kỳ nghỉ hè, các câu lạc bộ thể thao đông kín người"},
			{"/thoi-su/khanh-thanh-cau-di-bo-ven-song.html", "Khánh thành cây cầu đi bộ ven sông sau hai năm thi công"},
		}},
		{"Kinh tế", []newsLink{
			{"/kinh-te/gia-lua-tang-manh-o-dong-bang-song-cuu-long.html", "Giá lúa tăng mạnh ở đồng bằng sông Cửu Long, nông dân phấn khởi sau vụ mùa bội thu"},
			{"/kinh-te/doanh-nghiep-nho-chuyen-sang-ban-hang-truc-tuyen.html", "Nhiều doanh nghiệp nhỏ chuyển sang bán hàng trực tuyến để tiếp cận khách trẻ"},
			{"/kinh-te/xuat-khau-trai-cay-dat-muc-cao-ky-luc.html", "Xuất khẩu trái cây sáu tháng đầu năm đạt mức cao kỷ lục"},
			{"/kinh-te/cho-dau-moi-keo-dai-gio-mo-cua.html", "Chợ đầu mối kéo dài giờ mở cửa để phục vụ người mua sỉ vào ban đêm"},
		}},
		{"Đời sống", []newsLink{
			{"/doi-song/meo-giu-nha-mat-trong-nhung-ngay-nang-nong.html", "Mẹo giữ nhà mát mẻ trong những ngày nắng nóng mà không tốn nhiều tiền điện"},
			{"/doi-song/pho-bo-gia-truyen-ba-the-he.html", "Quán phở bò gia truyền ba thế hệ vẫn giữ hương vị xưa giữa lòng phố cổ"},
			{"/doi-song/nguoi-tre-quay-ve-que-lam-nong-nghiep-sach.html", "Người trẻ quay về quê làm nông nghiệp sạch và bán nông sản qua mạng"},
			{"/doi-song/thu-vien-sach-mien-phi-o-chung-cu.html", "Thư viện sách miễn phí ở chung cư thu hút cả trẻ em lẫn người cao tuổi"},
		}},
		{"Thể thao", []newsLink{
			{"/the-thao/doi-tuyen-nu-gianh-ve-vao-vong-chung-ket.html", "Đội tuyển nữ giành vé vào vòng chung kết sau trận đấu kịch tính trên sân nhà"},
			{"/the-thao/giai-chay-dem-thu-hut-muoi-nghin-nguoi.html", "Giải chạy đêm ven biển thu hút hơn mười nghìn người tham gia"},
			{"/the-thao/vo-si-tre-gianh-huy-chuong-vang-chau-a.html", "Võ sĩ trẻ giành huy chương vàng châu Á ở hạng cân năm mươi bảy ký"},
		}},
		{"Du lịch", []newsLink{
			{"/du-lich/kinh-nghiem-di-ha-giang-mua-lua-chin.html", "Kinh nghiệm đi Hà Giang mùa lúa chín cho người lần đầu tự lái xe máy"},
			{"/du-lich/dao-nho-mien-trung-hut-khach-dip-he.html", "Đảo nhỏ miền Trung hút khách dịp hè nhờ bãi cát trắng và nước biển trong xanh"},
			{"/du-lich/lang-gom-co-mo-cua-don-du-khach.html", "Làng gốm cổ mở cửa đón du khách trải nghiệm tự tay nặn gốm"},
		}},
	},
}

type newsSection struct {
	name  string
	links []newsLink
}

type newsLink struct {
	href, text string
}

// boiler is the site chrome around an article, in the page's language:
// what an extractor is expected to strip.
type boiler struct {
	nav     [4]string
	cookie  string
	related string
	footer  string
}

var boilers = map[string]boiler{
	"eng": {[4]string{"Home", "Guides", "About us", "Contact"}, "We use cookies to remember your settings and to count visits. Read our cookie policy.", "You might also like", "All rights reserved. This site exists only inside the ccrawl sample shard."},
	"deu": {[4]string{"Startseite", "Themen", "Über uns", "Kontakt"}, "Diese Seite verwendet Cookies, um Einstellungen zu speichern. Mehr in der Datenschutzerklärung.", "Das könnte Sie auch interessieren", "Alle Rechte vorbehalten. Diese Seite gibt es nur im Beispiel-Archiv von ccrawl."},
	"fra": {[4]string{"Accueil", "Rubriques", "Qui sommes-nous", "Contact"}, "Ce site utilise des cookies pour mémoriser vos préférences. En savoir plus.", "À lire aussi", "Tous droits réservés. Ce site n’existe que dans l’archive d’exemple de ccrawl."},
	"spa": {[4]string{"Inicio", "Secciones", "Quiénes somos", "Contacto"}, "Usamos cookies propias para recordar tus preferencias. Más información.", "También te puede interesar", "Todos los derechos reservados. Este sitio solo existe en el archivo de ejemplo de ccrawl."},
	"por": {[4]string{"Início", "Secções", "Sobre nós", "Contacto"}, "Este site usa cookies para guardar as suas preferências. Saiba mais.", "Leia também", "Todos os direitos reservados. Este site só existe no arquivo de exemplo do ccrawl."},
	"ita": {[4]string{"Home", "Rubriche", "Chi siamo", "Contatti"}, "Questo sito usa cookie tecnici per ricordare le tue preferenze. Leggi di più.", "Potrebbe interessarti anche", "Tutti i diritti riservati. Questo sito esiste solo nell'archivio di esempio di ccrawl."},
	"pol": {[4]string{"Strona główna", "Działy", "O nas", "Kontakt"}, "Ta strona używa plików cookie, aby zapamiętać Twoje ustawienia. Dowiedz się więcej.", "Zobacz także", "Wszelkie prawa zastrzeżone. Ta strona istnieje tylko w przykładowym archiwum ccrawl."},
	"nld": {[4]string{"Home", "Onderwerpen", "Over ons", "Contact"}, "Deze site gebruikt cookies om je voorkeuren te onthouden. Lees meer.", "Lees ook", "Alle rechten voorbehouden. Deze site bestaat alleen in het voorbeeldarchief van ccrawl."},
	"vie": {[4]string{"Trang chủ", "Chuyên mục", "Giới thiệu", "Liên hệ"}, "Trang web sử dụng cookie để ghi nhớ cài đặt của bạn. Tìm hiểu thêm.", "Bài viết liên quan", "Bản quyền thuộc về ban biên tập. Trang này chỉ có trong kho lưu trữ mẫu của ccrawl."},
	"rus": {[4]string{"Главная", "Разделы", "О нас", "Контакты"}, "Сайт использует файлы cookie, чтобы запоминать ваши настройки. Подробнее.", "Читайте также", "Все права защищены. Этот сайт существует только в примере архива ccrawl."},
	"jpn": {[4]string{"ホーム", "カテゴリー", "このサイトについて", "お問い合わせ"}, "当サイトでは設定を保存するためにクッキーを使用しています。詳しくはこちら。", "関連記事", "無断転載を禁じます。このサイトはccrawlのサンプル用にだけ存在します。"},
	"zho": {[4]string{"首页", "栏目", "关于我们", "联系我们"}, "本网站使用 Cookie 保存您的设置。了解更多。", "相关文章", "版权所有。本网站只存在于 ccrawl 的示例存档中。"},
	"ind": {[4]string{"Beranda", "Rubrik", "Tentang kami", "Kontak"}, "Situs ini memakai cookie untuk mengingat pengaturan Anda. Selengkapnya.", "Baca juga", "Hak cipta dilindungi. Situs ini hanya ada di arsip contoh ccrawl."},
	"tur": {[4]string{"Ana sayfa", "Bölümler", "Hakkımızda", "İletişim"}, "Bu site tercihlerinizi hatırlamak için çerez kullanır. Daha fazla bilgi.", "Bunlar da ilginizi çekebilir", "Tüm hakları saklıdır. Bu site yalnızca ccrawl örnek arşivinde bulunur."},
	"ara": {[4]string{"الرئيسية", "الأقسام", "من نحن", "اتصل بنا"}, "يستخدم هذا الموقع ملفات تعريف الارتباط لحفظ إعداداتك. اعرف المزيد.", "اقرأ أيضًا", "جميع الحقوق محفوظة. هذا الموقع موجود فقط في أرشيف ccrawl التجريبي."},
}
