/*
** ssb-data/dists.c — the word lists of dists.h, in dbgen's order.
*/
#include "dists.h"

const char *const ssb_aNation[SSB_NATION_COUNT] = {
  "ALGERIA", "ARGENTINA", "BRAZIL", "CANADA", "EGYPT",
  "ETHIOPIA", "FRANCE", "GERMANY", "INDIA", "INDONESIA",
  "IRAN", "IRAQ", "JAPAN", "JORDAN", "KENYA",
  "MOROCCO", "MOZAMBIQUE", "PERU", "CHINA", "ROMANIA",
  "SAUDI ARABIA", "VIETNAM", "RUSSIA", "UNITED KINGDOM", "UNITED STATES",
};

const char *const ssb_aRegion[SSB_REGION_COUNT] = {
  "AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST",
};

const int ssb_aNationRegion[SSB_NATION_COUNT] = {
  0, 1, 1, 1, 4,
  0, 3, 3, 2, 2,
  4, 4, 2, 4, 0,
  0, 0, 1, 2, 3,
  4, 2, 3, 3, 1,
};

const char *const ssb_aColor[SSB_COLOR_COUNT] = {
  "almond", "antique", "aquamarine", "azure", "beige", "bisque", "black",
  "blanched", "blue", "blush", "brown", "burlywood", "burnished",
  "chartreuse", "chiffon", "chocolate", "coral", "cornflower", "cornsilk",
  "cream", "cyan", "dark", "deep", "dim", "dodger", "drab", "firebrick",
  "floral", "forest", "frosted", "gainsboro", "ghost", "goldenrod", "green",
  "grey", "honeydew", "hot", "indian", "ivory", "khaki", "lace", "lavender",
  "lawn", "lemon", "light", "lime", "linen", "magenta", "maroon", "medium",
  "metallic", "midnight", "mint", "misty", "moccasin", "navajo", "navy",
  "olive", "orange", "orchid", "pale", "papaya", "peach", "peru", "pink",
  "plum", "powder", "puff", "purple", "red", "rose", "rosy", "royal",
  "saddle", "salmon", "sandy", "seashell", "sienna", "sky", "slate", "smoke",
  "snow", "spring", "steel", "tan", "thistle", "tomato", "turquoise",
  "violet", "wheat", "white", "yellow",
};

const char *const ssb_aSegment[SSB_SEGMENT_COUNT] = {
  "AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY",
};

const char *const ssb_aPriority[SSB_PRIORITY_COUNT] = {
  "1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW",
};

const char *const ssb_aShipMode[SSB_SHIPMODE_COUNT] = {
  "REG AIR", "AIR", "RAIL", "TRUCK", "MAIL", "FOB", "SHIP",
};

const char *const ssb_aType1[SSB_TYPE1_COUNT] = {
  "STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO",
};
const char *const ssb_aType2[SSB_TYPE2_COUNT] = {
  "ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED",
};
const char *const ssb_aType3[SSB_TYPE3_COUNT] = {
  "TIN", "NICKEL", "BRASS", "STEEL", "COPPER",
};

const char *const ssb_aContainer1[SSB_CONTAINER1_COUNT] = {
  "SM", "LG", "MED", "JUMBO", "WRAP",
};
const char *const ssb_aContainer2[SSB_CONTAINER2_COUNT] = {
  "CASE", "BOX", "BAG", "JAR", "PACK", "PKG", "CAN", "DRUM",
};
